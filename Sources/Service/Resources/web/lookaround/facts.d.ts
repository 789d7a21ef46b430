// The shape of /lookaround/facts.js, which the server generates from ViewerFacts.swift (its values are
// defined there once). For the type checker only: this file is not served.
declare const facts: {
  /** The viewer's camera: limits and defaults, degrees; the place labels' scale (the device pixel ratio) within labelScale. */
  camera: {
    defaultFieldOfViewDegrees: number;
    defaultPitchDegrees: number;
    fieldOfViewDegrees: [number, number];
    labelScale: [number, number];
    pitchDegrees: [number, number];
  };
  /** A deep link: `${pathPrefix}LAT,LON,VALUEunit,…?query`; pitch = tilt − horizonTiltDegrees. */
  deepLink: {
    horizonTiltDegrees: number;
    pathPrefix: string;
    query: { fov: string; heading: string; panorama: string; pitch: string; viewpoint: string };
    units: Record<string, "fov" | "heading" | "tilt">;
  };
  /** A frame request: its path, the fields of its key in order, the camera's decimals, the picture. */
  frame: {
    decimals: number;
    firstFrameLabels: string;
    format: string;
    keyFields: string[];
    path: string;
    quality: number;
  };
};
export default facts;
