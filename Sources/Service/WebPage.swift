/// The page, assembled from its three parts in the web folder's `page/`: `head.html` (what the first
/// view needs: the viewport, the icon, first-view.css and first-view.js), `assets.html` (the page's
/// other style sheets and the modules it preloads) and `body.html` (the map, the bars, the panels).
///
/// Two pages are made of them. The plain page is the three in order. A deep link's first-view page
/// puts the picture first in the body and holds the assets and the body in a
/// `<template id="la-page">`, which first-view.js unfolds once the picture is painted: a fresh browser
/// then paints the picture with nothing else to fetch, style or lay out (`Benchmarks web`, section 3).
struct WebPage: Sendable {
    /// The parts' file names, in the page's order.
    static let partNames = ["head.html", "assets.html", "body.html"]
    /// The id of the template that holds the rest of a first-view page (first-view.js reads it).
    static let heldID = "la-page"

    let head: String, assets: String, body: String
    /// The plain page, ready to send.
    let plain: WebResources.File

    /// The page from `parts` (file name → text).
    /// - Throws: `ServiceError.internalError` naming a part that is missing (in `folder`).
    init(parts: [String: String], folder: String) throws(ServiceError) {
        var texts: [String] = []
        for name in Self.partNames {
            guard let text = parts[name] else { throw .internalError(detail: "the web page's part \(folder)\(name) is missing") }
            texts.append(text.hasSuffix("\n") || text.isEmpty ? text : text + "\n")
        }
        (head, assets, body) = (texts[0], texts[1], texts[2])
        plain = WebResources.File(html: Self.document(head: head + assets, body: body))
    }

    /// The first-view page with `picture` (an `<img>` element's HTML) first in its body.
    func firstView(picture: String) -> String {
        Self.document(head: head, body: picture + "<template id=\"\(Self.heldID)\">\n" + assets + body + "</template>\n")
    }

    private static func document(head: String, body: String) -> String {
        "<!doctype html>\n<html lang=\"en\">\n<head>\n" + head + "</head>\n<body>\n" + body + "</body>\n</html>\n"
    }
}
