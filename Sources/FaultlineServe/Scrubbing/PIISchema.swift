/// Sentry's event protocol as Relay's PII processor sees it: for each member of each structure, what structure and
/// types its value has and how far it may hold user data (the schema's `pii` attribute), as sentry-relay 0.10.1 reads
/// an event its normalizer has normalized. A selector's match depends on it: `$string` reaches `extra`'s texts but
/// not a frame's `abs_path`, which only `$frame.abs_path` names.
///
/// The object of a structure (the user, the request, an exception, a frame) is never reached itself, only its fields;
/// data of any shape (`extra`, a request's `data`, a context Sentry does not know) is reached whole too.
///
/// The contexts Sentry knows (`device`, `os`, `app`, `trace`, ...) count their own fields as fields that may hold user
/// data, except those Relay says do (`device_unique_identifier`; a response's headers, cookies and data); a context of
/// another name holds user data throughout.
enum PIISchema {
    /// A structure of the protocol, or a kind of value.
    enum Structure: Hashable, Sendable {
        case event, logEntry, user, geo, request, contexts, response, traceData
        /// A context in `contexts`, of a kind.
        case context(ContextKind)
        case exceptions, exception, mechanism, stacktrace, frames, frame
        case breadcrumbs, breadcrumb, threads, thread, template, debugMeta, images, image, sdk, spans, span
        /// A list the values of whose `[key, value]` pairs (or members) are read by key: headers, cookies, a query
        /// string, tags.
        case pairList(PIIPlace.Sensitivity)
        /// The `values` list of `exception`, `breadcrumbs` or `threads`, of elements of this structure.
        case values(Element)
        /// Data of any shape (`extra`, a request's `data`, frame `vars`): every value in it as sensitive as it.
        case data(PIIPlace.Sensitivity)
        /// A scalar field, or a structure whose members hold no user data.
        case opaque
    }

    /// The structures a `values` list holds.
    enum Element: Hashable, Sendable {
        case exception, breadcrumb, thread
    }

    /// A context, by the name Sentry gives its type.
    enum ContextKind: Hashable, Sendable {
        /// A context of a type Sentry knows, whose fields may hold user data.
        case known
        /// The `trace` context, whose `data` holds a span's data.
        case trace
        /// A context whose fields hold no user data (`profile`, `replay`, `reprocessing`, `feedback`).
        case structural
    }

    /// What a member or element is.
    struct Field: Sendable {
        var structure: Structure
        var types: PIIValueTypes = []
        var sensitivity: PIIPlace.Sensitivity
        /// Whether the value is the path of a binary or source file (a frame's `abs_path`, an image's `code_file`),
        /// whose file name no rule takes: the rules apply to the directory.
        var isFilePath = false
    }

    /// Whether a value of `structure` is of no protocol structure, so that it is an `$object` or `$array` too.
    static func isFreeform(_ structure: Structure) -> Bool {
        switch structure {
        case .data, .pairList: true
        default: false
        }
    }

    /// Whether a structure's arrays are lists of `[key, value]` pairs read by key.
    static func isPairList(_ structure: Structure) -> Bool {
        if case .pairList = structure { return true }
        return false
    }

    private static func field(
        _ structure: Structure, _ sensitivity: PIIPlace.Sensitivity, _ types: PIIValueType...
    ) -> Field {
        Field(structure: structure, types: PIIValueTypes(types.map(PIIValueTypes.init)), sensitivity: sensitivity)
    }

    private static let none = field(.opaque, .none)
    private static let maybe = field(.opaque, .maybe)
    private static let user = field(.opaque, .user)

    /// The member `key` of a value of `structure`.
    static func member(_ key: String, of structure: Structure) -> Field {
        switch structure {
        case .event: return eventMember(key)
        case .logEntry:
            switch key {
            case "formatted": return field(.opaque, .user, .message)
            case "message": return none
            case "params": return field(.data(.user), .user)
            default: return user
            }
        case .user:
            switch key {
            case "geo": return field(.geo, .none)
            case "data": return field(.data(.user), .user)
            case "segment": return none
            default: return user
            }
        case .geo: return ["country_code", "city", "subdivision", "region"].contains(key) ? user : none
        case .request:
            switch key {
            case "url": return maybe
            case "method", "protocol", "body_size", "inferred_content_type", "api_target": return none
            case "data", "env": return field(.data(.user), .user)
            case "query_string", "cookies", "headers": return field(.pairList(.user), .user)
            default: return user
            }
        case .contexts: return context(named: key)
        case .context(let kind):
            switch (kind, key) {
            case (_, "type"), (.structural, _): return none
            case (.trace, "data"): return field(.traceData, .maybe)
            case (.known, "device_unique_identifier"): return user
            case (.known, "distribution"), (.known, "attributes"), (.known, "resource"):
                return field(.data(.maybe), .maybe)
            case (.known, _), (.trace, _): return maybe
            }
        case .response:
            switch key {
            case "cookies", "headers": return field(.pairList(.user), .user)
            case "data": return field(.data(.user), .user)
            case "type", "status_code", "body_size", "inferred_content_type": return none
            default: return maybe
            }
        case .traceData:
            // Span data: the attributes Sentry's conventions name may hold user data; any other does.
            return ["code.filepath", "db.operation"].contains(key) ? maybe : field(.data(.user), .user)
        case .exceptions, .breadcrumbs, .threads:
            guard key == "values", let element = element(listedIn: structure) else { return none }
            return field(.values(element), .none)
        case .exception:
            switch key {
            case "value": return user
            case "stacktrace", "raw_stacktrace": return field(.stacktrace, .none, .stack)
            case "mechanism": return field(.mechanism, .none)
            default: return none
            }
        case .mechanism:
            switch key {
            case "description": return user
            case "data": return field(.data(.user), .user)
            default: return none
            }
        case .stacktrace: return key == "frames" ? field(.frames, .none) : none
        case .frame:
            switch key {
            case "vars": return field(.data(.user), .user)
            case "abs_path", "filename": return Field(structure: .opaque, sensitivity: .maybe, isFilePath: true)
            case "module": return maybe
            default: return none
            }
        case .breadcrumb:
            switch key {
            case "message": return user
            case "data": return field(.data(.user), .user)
            default: return none
            }
        case .thread: return key == "stacktrace" ? field(.stacktrace, .none, .stack) : none
        case .template: return key == "filename" || key == "abs_path" ? user : none
        case .debugMeta: return key == "images" ? field(.images, .none) : none
        case .image:
            return key == "code_file" || key == "debug_file"
                ? Field(structure: .opaque, sensitivity: .maybe, isFilePath: true) : none
        case .sdk: return key == "client_ip" ? user : none
        case .span:
            switch key {
            case "description": return maybe
            case "tags": return field(.pairList(.maybe), .maybe)
            case "data": return field(.traceData, .user)
            case "timestamp", "start_timestamp", "exclusive_time", "op", "span_id", "parent_span_id", "trace_id",
                "segment_id", "status", "origin", "measurements":
                return none
            default: return maybe
            }
        case .pairList(let sensitivity), .data(let sensitivity):
            return field(.data(sensitivity), sensitivity)
        case .values, .frames, .images, .spans, .opaque:
            return none
        }
    }

    /// An element of an array of `structure`.
    static func element(of structure: Structure) -> Field {
        switch structure {
        case .values(.exception): field(.exception, .none, .error)
        case .values(.breadcrumb): field(.breadcrumb, .none, .breadcrumb)
        case .values(.thread): field(.thread, .none, .thread)
        case .frames: field(.frame, .none, .frame)
        case .images: field(.image, .none)
        case .spans: field(.span, .none, .span)
        case .data(let sensitivity), .pairList(let sensitivity): field(.data(sensitivity), sensitivity)
        default: none
        }
    }

    private static func eventMember(_ key: String) -> Field {
        switch key {
        case "logentry": field(.logEntry, .none, .logentry)
        case "user": field(.user, .none, .user)
        case "request": field(.request, .none, .http)
        case "contexts": field(.contexts, .none)
        case "exception": field(.exceptions, .none)
        case "breadcrumbs": field(.breadcrumbs, .none)
        case "threads": field(.threads, .none)
        case "stacktrace": field(.stacktrace, .none, .stack)
        case "template": field(.template, .none)
        case "tags": field(.pairList(.maybe), .maybe)
        case "extra": field(.data(.user), .user)
        case "debug_meta": field(.debugMeta, .none)
        case "sdk": field(.sdk, .none, .sdk)
        case "spans": field(.spans, .none)
        case "culprit": maybe
        case "server_name": user
        case "event_id", "level", "version", "fingerprint", "transaction", "transaction_info", "time_spent", "logger",
            "modules", "platform", "timestamp", "start_timestamp", "received", "release", "dist", "environment",
            "site", "ingest_path", "errors", "key_id", "project", "grouping_config", "checksum", "type",
            "measurements", "breakdowns", "_metrics", "_dsc", "_meta", "scraping_attempts":
            none
        default: field(.data(.user), .user)
        }
    }

    private static func context(named name: String) -> Field {
        switch name {
        case "app", "browser", "culture", "device", "gpu", "os", "runtime", "flags", "memory_info", "spring",
            "threadpool_info", "unity", "otel":
            field(.context(.known), .none)
        case "monitor": field(.context(.known), .maybe)
        case "trace": field(.context(.trace), .none)
        case "response": field(.response, .none)
        case "profile", "replay", "reprocessing", "feedback": field(.context(.structural), .none)
        default: field(.data(.user), .user)
        }
    }

    private static func element(listedIn structure: Structure) -> Element? {
        switch structure {
        case .exceptions: .exception
        case .breadcrumbs: .breadcrumb
        case .threads: .thread
        default: nil
        }
    }
}
