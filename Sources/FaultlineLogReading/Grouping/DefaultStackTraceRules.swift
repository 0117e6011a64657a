/// The stack trace rules of Sentry's default grouping (`newstyle:2023-01-11`) that Faultline applies, in Sentry's
/// order: which frames are the app's (an iOS app's bundle, not the Swift runtime, Sentry's own SDKs, site-packages,
/// node_modules, Go's module cache, Java frameworks), what frames are (system, thread bases, throwing, indirection,
/// compiler internals), and which of them do not count. Rules for platforms whose events Faultline has not seen
/// (Windows drivers, Unreal Engine, Android's vendor libraries) are left out.
enum DefaultStackTraceRules {
    static let rules: [StackTraceRule] = texts.map(StackTraceRule.init)
    /// The rules that change frames, applied first (``StackTraceRule/modifiesFrames``).
    static let modifying = rules.filter(\.modifiesFrames)
    /// The rules that decide what counts, applied to the frames as the first pass left them.
    static let grouping = rules.filter { rule in
        rule.actions.contains {
            if case .group = $0 { true } else { false }
        }
    }

    private static let texts = [
        // the app's own code on Apple platforms
        "family:native package:/var/containers/Bundle/Application/** +app",
        "family:native package:/private/var/containers/Bundle/Application/** +app",
        "family:native package:**/Developer/CoreSimulator/Devices/** +app",
        "family:native package:**/Containers/Bundle/Application/** +app",
        "family:native package:**.app/Contents/** +app",
        "family:native package:/Users/** +app",
        // the system's libraries on Unix
        "family:native package:/lib/** -app",
        "family:native package:/usr/lib/** -app",
        "family:native path:/usr/local/lib/** -app",
        "family:native path:/usr/local/Cellar/** -app",
        "family:native package:linux-gate.so* -app",
        // Rust's standard library and its panics
        "family:native function:std::* -app",
        "family:native function:core::* -app",
        "family:native function:alloc::* -app",
        "family:native function:__rust_* -app",
        "family:native function:rust_begin_unwind -app",
        "family:native function:std::panicking::begin_panic ^-group -group ^-app -app",
        "family:native function:core::panicking::begin_panic ^-group -group ^-app -app",
        "family:native function:std::panicking::panic_fmt ^-app -app",
        "family:native function:core::panicking::panic_fmt ^-app -app",
        // where C++ and Objective-C throw
        "family:native function:_CxxThrowException ^-group -group ^-app -app",
        "family:native function:__cxa_throw ^-group -group ^-app -app",
        "family:native function:__assert_rtn ^-group -group ^-app -app",
        "family:native function:_NSRaiseError ^-group -group ^-app -app",
        "family:native function:_mh_execute_header -group -app",
        // crash reporters and the Swift runtime bundled with an app
        "family:native function:google_breakpad::* -app -group",
        "family:native package:**/Frameworks/libswift*.dylib -app",
        "family:native package:**/Frameworks/KSCrash.framework/** -app",
        "family:native package:**/Frameworks/SentrySwift.framework/** -app",
        "family:native package:**/Frameworks/Sentry.framework/** -app",
        "family:native function:kscm_* -app -group",
        "family:native function:sentrycrashcm_* -app -group",
        "family:native function:kscrash_* -app -group",
        "family:native function:*sentrycrash_* -app -group",
        "family:native function:\"?[[]KSCrash*\" -app -group",
        "family:native function:\"?[[]RNSentry*\" -app -group",
        "family:native function:\"?[[]Sentry*\" -app -group",
        // Dart and Flutter
        "family:native stack.package:/data/app/** stack.abs_path:**.dart +app",
        "family:javascript stack.abs_path:org-dartlang-sdk:///** -app",
        "family:javascript module:**/packages/flutter/** -app",
        "family:native stack.abs_path:**/packages/flutter/** -app",
        "stack.abs_path:package:sentry/** -app -group",
        "stack.abs_path:package:sentry_flutter/** -app -group",
        "family:native stack.abs_path:**/.pub-cache/** -app",
        // what native frames are
        "family:native package:\"/System/Library/Frameworks/**\" category=system",
        "family:native package:/usr/lib/** category=system",
        "family:native function:memset category=system",
        "family:native function:memcpy category=system",
        "family:native function:__memcpy category=system",
        "family:native function:memcmp category=system",
        "family:native package:CoreFoundation category=system",
        "family:native package:Foundation category=system",
        "family:native package:CFNetwork category=system",
        "family:native package:IOKit category=system",
        "family:native package:QuartzCore category=system",
        "family:native package:libobjc* category=system",
        "family:native package:libsystem* category=system",
        "family:native package:/system/** category=system",
        "family:native package:libdispatch.dylib category=system",
        "family:native package:WebKit category=system",
        "family:native function:boost::* category=std",
        "family:native function:std::* category=std",
        "family:native package:UIKit category=ui",
        "family:native package:UIKitCore category=ui",
        "family:native package:SwiftUI category=ui",
        "family:native package:AttributeGraph category=ui",
        "family:native package:CoreAutoLayout category=ui",
        "family:native package:GraphicsServices category=ui",
        "family:native function:\"-\\[NSISEngine*\" category=ui",
        "category:ui function:handleMessage category=indirection",
        "category:ui function:run category=indirection",
        "family:native function:std::_* category=internals",
        "family:native function:__swift_* category=internals",
        "family:native function:block_destroy_helper* category=internals",
        "family:native function:*_block_invoke* app:no category=internals",
        "family:native package:/usr/lib/system/** function:start category=threadbase",
        "family:native package:libdyld.dylib function:start category=threadbase",
        "family:native function:thread_start category=threadbase",
        "family:native function:_pthread_start category=threadbase",
        "family:native function:__pthread_start category=threadbase",
        "family:native function:_pthread_body category=threadbase",
        "family:native function:_dispatch_worker_thread2 category=threadbase",
        "family:native function:start_wqthread category=threadbase",
        "family:native function:_pthread_wqthread category=threadbase",
        "family:native function:boost::*::thread_proxy category=threadbase",
        "family:native package:\"**/libsystem_malloc.dylib\" category=malloc",
        "family:native function:malloc category=malloc",
        "family:native function:std::*::allocator_traits* category=malloc",
        "family:native function:*::operator()* category=indirection",
        "family:native function:*<lambda>* category=indirection",
        "family:native function:__dynamic_cast category=indirection",
        "family:native function:boost::function* category=indirection",
        "family:native function:Array.subscript.* category=indirection",
        "module:java.lang.reflect.* category=indirection",
        "family:native function:exit category=shutdown",
        "family:native function:_sigtramp category=handler",
        "family:native function:abort category=throw",
        "family:native function:raise category=throw",
        "family:native function:std::terminate category=throw",
        "family:native function:_CFThrowFormattedException category=throw",
        "family:native function:objc_exception_throw category=throw",
        "family:native function:AG::precondition_failure* category=throw",
        "family:native function:free category=free",
        "family:native function:objc_release category=free",
        "family:native function:_swift_release_dealloc category=free",
        "family:native function:_CFRelease category=free",
        "family:native function:dlopen category=load",
        "family:native function:dladdr category=load",
        "family:native function:pthread_mutex_lock category=lock",
        "family:native function:pthread_mutex_unlock category=lock",
        "[ category:malloc ] | category:malloc category=internals",
        "category:throw ^-group",
        "[ category:throw ] | category:throw category=internals",
        "category:system -app",
        "category:threadbase -group v-group",
        "category:handler ^-group -group",
        "category:indirection -group",
        "category:internals -group",
        // what of them is noise
        "family:native category:system function:_* !function:_purecall category=internals",
        "family:native category:system function:\"<unknown>\" category=internals",
        "family:native function:_INTERNAL* category=internals",
        "family:native function:closure category=internals",
        "family:native function:Collection.map<T> category=internals",
        "family:native function:Array.subscript.getter category=internals",
        "family:native function:Array._getElement category=internals",
        "family:native function:_ArrayBuffer._nativeTypeChecked.getter category=internals",
        "family:native function:range category=internals",
        // Swift's reabstraction thunks, whatever platform the event names
        "function:@callee_guaranteed category=internals",
        "family:native function:*.cold.1 category=indirection",
        "[ !category:system ] | category:system | [ !category:system ] category=indirection",
        "[ category:free ] | category:system category=internals",
        "[ category:system ] | category:system category=internals",
        "[ category:std ] | category:system category=internals",
        "[ category:std ] | category:std category=internals",
        "[ category:ui ] | category:ui category=internals",
        "[ category:ui ] | category:system category=internals",
        "[ category:internals ] | category:system category=internals",
        "[ category:internals ] | category:ui category=internals",
        "[ category:load ] | category:system category=internals",
        "[ category:load ] | category:load category=internals",
        "[ category:throw ] | category:system category=internals",
        // UIApplicationMain is a thread base only once the UI frames it called were folded, as in the rules
        // Sentry's grouping fixtures were made with
        "family:native package:UIKitCore function:UIApplicationMain category=threadbase",
        "family:native package:UIKit function:UIApplicationMain category=threadbase",
        // other SDKs' libraries
        "path:**/vendor/** -app",
        "path:**/site-packages/** -app",
        "path:**/dist-packages/** -app",
        "path:**/node_modules/** -app",
        "module:@babel/** -app -group",
        "module:core-js/** -app -group",
        "module:regenerator-runtime/** -app -group",
        "module:tslib/** -app -group",
        "function:runMicrotasks -app -group",
        "function:processTicksAndRejections -app -group",
        "function:nextTick -app -group",
        "path:**/go/pkg/mod/** -app",
        "module:io.sentry.* -app -group",
        "module:java.* -app",
        "module:javax.* -app",
        "module:sun.* -app",
        "module:com.sun.* -app",
        "module:jdk.* -app",
        "module:org.apache.* -app",
        "module:org.springframework.* -app",
        "module:org.jboss.* -app",
        "module:com.fasterxml.* -app",
        "module:kotlin.* -app",
        "module:kotlinx.* -app",
        "module:io.ktor.* -app",
        "module:io.netty.* -app",
    ]
}

extension DefaultStackTraceRules {
    /// Applies the rules to a stack trace's frames, oldest first, as Sentry does: the rules that change frames one
    /// after the other, each to every frame it matches (all matched before any is changed); then the grouping
    /// rules, to the frames as changed.
    static func apply(to frames: inout [GroupingFrame]) {
        for rule in modifying {
            let matching = frames.withUnsafeBufferPointer { frames in
                frames.indices.filter { rule.matches(frames, at: $0) }
            }
            for index in matching {
                for action in rule.actions {
                    switch action {
                    case .inApp(let value, let range):
                        for target in targets(range, of: index, in: frames) { frames[target].inApp = value }
                    case .category(let name): frames[index].category = name
                    case .group: break
                    }
                }
            }
        }
        for rule in grouping {
            let matching = frames.withUnsafeBufferPointer { frames in
                frames.indices.filter { rule.matches(frames, at: $0) }
            }
            for index in matching {
                for case .group(let value, let range) in rule.actions {
                    for target in targets(range, of: index, in: frames) { frames[target].counts = value }
                }
            }
        }
    }

    private static func targets(_ range: StackTraceRule.Range, of index: Int, in frames: [GroupingFrame])
        -> Range<Int>
    {
        switch range {
        case .frame: index..<(index + 1)
        case .callees: (index + 1)..<frames.count
        case .callers: 0..<index
        }
    }
}
