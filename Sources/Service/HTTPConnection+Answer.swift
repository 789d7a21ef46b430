// The connection's second half: answers (written, then what follows them), refusals, deadlines, close.

extension HTTPConnection {
    /// Answers `exchange` with `response`: reports its outcome, then writes it. `closing` closes the
    /// connection after it (as do a client that asked to, and a draining server); `linger` reads and
    /// drops what the client still sends for a moment first.
    func answer<Context: HTTPConnectionContext>(_ exchange: HTTPExchange, _ response: HTTPResponse, closing: Bool = false,
                                                linger: Bool = false, _ context: Context) {
        let closes = closing || !exchange.keepAlive || context.isDraining
        var response = response
        if response.status == 503, !response.headers.contains(where: { $0.name.lowercased() == "retry-after" }) {
            response.headers.append(("Retry-After", "\(context.configuration.retryAfterSeconds)"))
        }
        let head = context.responseHead(response, method: exchange.method, closing: closes, http10KeepAlive: !exchange.isHTTP11)
        let sendsBody = exchange.method != "HEAD" && HTTPResponseWriter.hasContent(response.status)
        let output = HTTPOutput(head: head, body: sendsBody ? response.body : [])
        context.handler.finished(HTTPOutcome(method: exchange.method, path: exchange.path, route: exchange.route, status: response.status,
                                             bytes: output.body.count, microseconds: Int((context.now &- exchange.started) / 1000),
                                             rendered: exchange.rendered))
        phase = .writing(exchange, output, then: closes ? (linger ? .linger : .close) : .nextRequest)
        flush(context)
    }

    /// Refuses a request whose head could not be read whole (malformed, over a limit): the error's
    /// answer, then the connection lingers and closes. `path` is the request's when its line was read.
    func refuse<Context: HTTPConnectionContext>(_ error: ServiceError, path: String?, _ context: Context) {
        var started = context.now
        if case .head(let headStarted, _) = phase { started = headStarted }
        var exchange = beginUnreadRequest(started: started, context)
        exchange.path = path ?? "-"
        refuse(error, exchange: exchange, context)
    }

    /// Refuses a request the engine will not serve (its body breaks the coding or a limit, the body
    /// budget is spent): the error's answer, then the connection lingers and closes.
    func refuse<Context: HTTPConnectionContext>(_ error: ServiceError, exchange: HTTPExchange, _ context: Context) {
        var exchange = exchange
        exchange.route = error.code
        let response = context.handler.protocolError(error, path: exchange.path == "-" ? nil : exchange.path)
        answer(exchange, response, closing: true, linger: true, context)
    }

    /// Writes what the socket takes of the answer; when all of it is out, goes on to what follows.
    func flush<Context: HTTPConnectionContext>(_ context: Context) {
        guard case .writing(let exchange, var output, let then) = phase else { return }
        while output.offset < output.total {
            let offset = output.offset
            let result = output.head.withUnsafeBytes { head in
                output.body.withUnsafeBytes { body in
                    context.send(socket, UnsafeRawBufferPointer(rebasing: head[min(offset, head.count)...]),
                                 UnsafeRawBufferPointer(rebasing: body[max(0, offset - head.count)...]))
                }
            }
            switch result {
            case .wrote(let count):
                output.offset += count
                lastActivity = context.now
            case .wouldBlock:
                phase = .writing(exchange, output, then: then)
                return
            case .failed:
                return close(context)
            }
        }
        switch then {
        case .readBody(let reader):
            phase = .body(exchange, reader)
        case .nextRequest:
            end(exchange, context)
            phase = .idle(skipped: 0)
        case .close:
            close(context)
        case .linger:
            end(exchange, context)
            context.shutdownWrite(socket)
            phase = .lingering(until: context.now + UInt64(context.configuration.lingerSeconds) * 1_000_000_000, discarded: 0)
        }
    }

    /// Closes: a request not answered yet is reported as 499 (its client left first); whatever the
    /// request held is given back. The loop then forgets the connection.
    func close<Context: HTTPConnectionContext>(_ context: Context) {
        switch phase {
        case .closed:
            return
        case .body(let exchange, _), .working(let exchange, _), .writing(let exchange, _, .readBody):
            context.handler.finished(HTTPOutcome(method: exchange.method, path: exchange.path, route: exchange.route, status: 499,
                                                 bytes: 0, microseconds: Int((context.now &- exchange.started) / 1000),
                                                 rendered: exchange.rendered))
            end(exchange, context)
        case .writing(let exchange, _, _):
            end(exchange, context)
        case .idle, .head, .lingering:
            break
        }
        phase = .closed
    }

    /// The request is over (answered, or its connection lost).
    private func end<Context: HTTPConnectionContext>(_ exchange: HTTPExchange, _ context: Context) {
        context.bodyBudget.release(exchange.bodyBytes)
        context.requestEnded()
    }

    // MARK: Deadlines

    /// Enforces the deadlines (the loop calls this a few times a second): a head or body that takes too
    /// long is answered 408, work that takes too long 503; a connection that makes no progress is
    /// closed, and so is an idle one when the server drains.
    func checkDeadlines<Context: HTTPConnectionContext>(_ context: Context) {
        let configuration = context.configuration, now = context.now
        func nanoseconds(_ seconds: Int) -> UInt64 { UInt64(seconds) * 1_000_000_000 }
        let idle = now &- lastActivity > nanoseconds(configuration.connectionTimeoutSeconds)
        switch phase {
        case .idle:
            if idle || context.isDraining { close(context) }
        case .head(let started, _):
            if now &- started > nanoseconds(configuration.headerTimeoutSeconds) {
                timeOut(seconds: configuration.headerTimeoutSeconds, context)
            } else if idle {
                timeOut(seconds: configuration.connectionTimeoutSeconds, context)
            }
        case .body(_, let reader):
            if now &- reader.started > nanoseconds(configuration.bodyTimeoutSeconds) {
                timeOut(seconds: configuration.bodyTimeoutSeconds, context)
            } else if idle {
                timeOut(seconds: configuration.connectionTimeoutSeconds, context)
            }
        case .working(let exchange, let deadline):
            if now > deadline {
                answer(exchange, context.handler.overloaded(route: exchange.route, retryAfterSeconds: configuration.retryAfterSeconds), context)
                processInbox(context)
            }
        case .writing:
            if idle { close(context) }
        case .lingering(let until, _):
            if now > until { close(context) }
        case .closed:
            break
        }
    }

    /// A 408 and close, without lingering (the client is slow already).
    private func timeOut<Context: HTTPConnectionContext>(seconds: Int, _ context: Context) {
        var exchange: HTTPExchange
        switch phase {
        case .head(let started, _): exchange = beginUnreadRequest(started: started, context)
        case .body(let bodyExchange, _): exchange = bodyExchange
        default: return
        }
        let error = ServiceError.requestTimeout(seconds: seconds)
        exchange.route = error.code
        answer(exchange, context.handler.protocolError(error, path: exchange.path == "-" ? nil : exchange.path), closing: true, context)
    }
}
