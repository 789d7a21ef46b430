// index.js: the public module of lookaround.js, shaped like MapKit JS's Look Around:
//
//   <div id="view" style="width:640px;height:360px"></div>
//   <script type="module">
//     import { LookAround } from "http://HOST:8080/lookaround/index.js";
//     const view = new LookAround(document.getElementById("view"), { latitude: 60.1695, longitude: 24.9525 });
//     view.addEventListener("load", () => console.log(view.scene.id));
//   </script>
//
// (or `<script src="http://HOST:8080/lookaround.js">` and `lookaround.LookAround`, as before modules).
// Every picture is rendered by the server (the same renderer as `lookaround snapshot` and the
// walkthroughs' moves); the browser only places frames on a 2D canvas, so it needs neither WebGL nor a
// GPU. © OpenStreetMap contributors for the map data.
export { LookAround } from "./look-around.js";
export { LookAroundPreview } from "./preview.js";
/** Sets the server (default: where these modules came from) and the API key: configure({baseURL, apiKey}). */
export { configure } from "./service.js";

/** The version of this API. */
export const version = "2";
