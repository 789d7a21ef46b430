/// A path pattern in the OpenAPI document's form: `/v1/scene`, `/v1/coverage/{z}/{x}/{y}`,
/// `/v1/tiles/{type}.json`. A pattern without placeholders matches its path exactly; one with
/// placeholders matches every path that starts with the text before the first placeholder and ends
/// with the text after the last, with something in between (and that `accepts`, when given): the
/// placeholders are the handler's to parse, so a malformed tile or coordinate gets the handler's 400
/// naming it, not a 404. When two patterns match, the one with more literal text wins
/// (`/v1/panoramas/{id}/tiles/{level}/{x}/{y}.jpg` before `/v1/panoramas/{id}`).
struct PathPattern: Sendable, CustomStringConvertible {
    /// The pattern as written.
    let template: String
    /// The literal text before the first placeholder and after the last (the whole path when none).
    let prefix: String, suffix: String
    /// Whether the pattern has placeholders.
    let isExact: Bool
    /// A further test of a path that fits the pattern's literal text (nil: every such path).
    let accepts: (@Sendable (String) -> Bool)?

    init(_ template: String, accepts: (@Sendable (String) -> Bool)? = nil) {
        self.template = template
        self.accepts = accepts
        if let open = template.firstIndex(of: "{"), let close = template.lastIndex(of: "}") {
            prefix = String(template[..<open])
            suffix = String(template[template.index(after: close)...])
            isExact = false
        } else {
            precondition(accepts == nil, "an exact path needs no test: \(template)")
            (prefix, suffix, isExact) = (template, "", true)
        }
    }

    /// How much literal text the pattern has (the more specific of two matches wins).
    var specificity: Int { prefix.utf8.count + suffix.utf8.count }

    /// Whether `path` fits the pattern.
    func matches(_ path: String) -> Bool {
        if isExact { return path == prefix }
        guard path.utf8.count > specificity, path.hasPrefix(prefix), path.hasSuffix(suffix) else { return false }
        return accepts?(path) ?? true
    }

    var description: String { template }
}

/// What a route does with a request that passed the table's checks (method, API key, query
/// parameters). An error it throws is answered through `ErrorAnswers` in the route's shape (a library's
/// error as `QueryParameters.translate` reports it).
enum RouteWork: Sendable {
    /// Answered on the network thread (cheap: a catalog query and JSON).
    case answer(@Sendable (HTTPRequest) throws -> HTTPResponse)
    /// Answered by a render worker (tens of milliseconds or more: a batch, a route, a walk).
    case worker(@Sendable (HTTPRequest) throws -> HTTPResponse)
    /// A deterministic picture: its job validated on the network thread, answered from the response
    /// cache when it can be, else made by a render worker (`RenderPipeline`).
    case rendered(@Sendable (HTTPRequest) throws -> RenderJob)
    /// What to do, decided by the route itself (the page, which answers and prepares its first frame).
    case disposition(@Sendable (HTTPRequest) throws -> HTTPDisposition)
}

/// One route: method and path pattern, its label in metrics and the access log, whether it needs the
/// API key, the shape its errors take, the query parameters it takes, and its work. A class: a request
/// passes its route along several times (match, preflight, admission, work), and a reference is one
/// retain where the value's strings, arrays and closures were a dozen.
final class Route: Sendable, CustomStringConvertible {
    enum Method: String, Sendable {
        /// GET (and HEAD: the same answer without its body).
        case get = "GET"
        /// POST, with a body of at most `HTTPServerConfiguration.maximumBodyBytes` (or the route's own bound).
        case post = "POST"
        /// DELETE (an uploaded collection), without a body.
        case delete = "DELETE"

        /// Whether it answers request method `method`.
        func answers(_ method: String) -> Bool { self == .get ? method == "GET" || method == "HEAD" : method == rawValue }
        /// The request methods it answers, for `Allow`.
        var allowed: [String] { self == .get ? ["GET", "HEAD"] : [rawValue] }
    }

    /// Who may ask: anyone, (when the server has API keys) a client with a key, or an uploader with a
    /// token from `--upload-key-file` (`Authorization: Bearer TOKEN`).
    enum Access: Sendable { case open, key, upload }

    let method: Method
    let pattern: PathPattern
    let label: String
    let access: Access
    let errors: ErrorShape
    /// The query parameters it takes (besides `key`), checked before the work; nil: the work checks them.
    let parameters: [String]?
    /// The largest body it takes when that is not `HTTPServerConfiguration.maximumBodyBytes` (an upload's picture).
    let maximumBodyBytes: Int?
    let work: RouteWork
    /// The family that answers it (its type's name; given by the table).
    let family: String

    init(_ method: Method, _ pattern: PathPattern, label: String, access: Access = .key, errors: ErrorShape = .native,
         parameters: [String]?, maximumBodyBytes: Int? = nil, _ work: RouteWork, family: String = "") {
        (self.method, self.pattern, self.label, self.access, self.errors, self.parameters, self.maximumBodyBytes, self.work, self.family)
            = (method, pattern, label, access, errors, parameters, maximumBodyBytes, work, family)
    }

    /// The same route, answered by `family`.
    fileprivate func answered(by family: String) -> Route {
        Route(method, pattern, label: label, access: access, errors: errors, parameters: parameters, maximumBodyBytes: maximumBodyBytes,
              work, family: family)
    }

    /// `GET /v1/scene → SceneRoutes, scene (answered at once)`: method, pattern, the family, the label,
    /// how it is answered, and when they are not the usual, its access and error shape.
    var description: String {
        let how = switch work {
        case .answer: "at once"
        case .worker: "by a render worker"
        case .rendered: "rendered, cached"
        case .disposition: "its own way"
        }
        return "\(method.rawValue) \(pattern) → \(family), \(label) (\(how))" + (access == .open ? ", open" : access == .upload ? ", upload token" : "")
            + (errors == .native ? "" : ", \(errors) errors")
    }
}

/// An API family: one handler type with its dependencies injected, answering its own routes. Adding a
/// family is a type conforming to this and one line in `SceneService`'s composition.
protocol RouteFamily: Sendable {
    /// The family's routes.
    var routes: [Route] { get }
}

/// The route table: every family's routes, matched by method and path. Exact paths are one dictionary
/// lookup (the hot routes: scene requests, Street View metadata); patterns are tried after, the most
/// specific match winning. Knows nothing of sockets, and the HTTP engine knows nothing of it.
struct RouteTable: Sendable, CustomStringConvertible {
    /// What a request's method and path find.
    enum Match {
        /// The route that answers.
        case route(Route)
        /// A route has the path, not for this method: the methods it takes (for `Allow`).
        case wrongMethod(Route, allowed: [String])
        /// No route has the path.
        case none

        /// Whether some route has the path (for any method).
        var exists: Bool { if case .none = self { false } else { true } }
    }

    /// Every route, in the families' order.
    let routes: [Route]
    private let exact: [String: [Route]]
    private let patterns: [Route]

    init(_ families: [any RouteFamily]) {
        routes = families.flatMap { family in
            family.routes.map { $0.answered(by: String(describing: type(of: family))) }
        }
        var exact: [String: [Route]] = [:]
        var seen: Set<String> = []
        for route in routes {
            let key = route.method.rawValue + " " + route.pattern.template
            precondition(seen.insert(key).inserted, "two routes for \(key)")
            if route.pattern.isExact { exact[route.pattern.template, default: []].append(route) }
        }
        self.exact = exact
        patterns = routes.filter { !$0.pattern.isExact }
    }

    /// The route for `method` and `path` (no allocation on the way to a route: this runs per request).
    func match(method: String, path: String) -> Match {
        var found: Route?, other: Route?
        func consider(_ route: Route) {
            if route.method.answers(method) {
                if found.map({ route.pattern.specificity > $0.pattern.specificity }) ?? true { found = route }
            } else if other.map({ route.pattern.specificity > $0.pattern.specificity }) ?? true {
                other = route
            }
        }
        if let routes = exact[path] {
            for route in routes { consider(route) }
        } else {
            for route in patterns where route.pattern.matches(path) { consider(route) }
        }
        if let found { return .route(found) }
        guard let other else { return .none }
        let candidates = exact[path] ?? patterns.filter { $0.pattern.matches(path) }
        let methods = candidates.flatMap(\.method.allowed)
        // OPTIONS too where a GET route is: the service answers it as a CORS preflight (SceneService.preflight).
        return .wrongMethod(other, allowed: methods + (methods.contains("GET") ? ["OPTIONS"] : []))
    }

    /// The route labelled `label` (the engine names a request by its route's label).
    func route(labelled label: String) -> Route? { routes.first { $0.label == label } }

    /// One line per route, as ``Route/description``.
    var description: String { routes.map(\.description).joined(separator: "\n") }
}
