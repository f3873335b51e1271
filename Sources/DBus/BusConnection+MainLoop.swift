import CDBus
import Dispatch

/// libdbus's main-loop hooks on Dispatch: a read and a write source per watch (present only
/// while libdbus enables the watch, so an idle socket costs nothing), a timer per timeout,
/// and a dispatch pass whenever messages are queued.
final class WatchSources {
    var read: DispatchSourceRead?
    var write: DispatchSourceWrite?

    func cancel() {
        read?.cancel()
        write?.cancel()
        read = nil
        write = nil
    }
}

extension BusConnection {
    func installMainLoop() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(raw, { watch, data in
            guard let watch, let data else { return 0 }
            Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().watchChanged(watch)
            return 1
        }, { watch, data in
            guard let watch, let data else { return }
            Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().removeWatch(watch)
        }, { watch, data in
            guard let watch, let data else { return }
            Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().watchChanged(watch)
        }, me, nil)
        dbus_connection_set_timeout_functions(raw, { timeout, data in
            guard let timeout, let data else { return 0 }
            Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().timeoutChanged(timeout)
            return 1
        }, { timeout, data in
            guard let timeout, let data else { return }
            Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().removeTimeout(timeout)
        }, { timeout, data in
            guard let timeout, let data else { return }
            Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().timeoutChanged(timeout)
        }, me, nil)
        dbus_connection_set_dispatch_status_function(raw, { _, status, data in
            guard let data, status == DBUS_DISPATCH_DATA_REMAINS else { return }
            Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().scheduleDispatch()
        }, me, nil)
        dbus_connection_add_filter(raw, { _, message, data in
            guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            let connection = Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue()
            if connection.serveCall(message) { return DBUS_HANDLER_RESULT_HANDLED }
            connection.route(message)
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }, me, nil)
        scheduleDispatch() // messages may have arrived during the handshake
    }

    func removeMainLoop() {
        dbus_connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_set_dispatch_status_function(raw, nil, nil, nil)
        for sources in watches.values { sources.cancel() }
        watches.removeAll()
        for timer in timers.values { timer.cancel() }
        timers.removeAll()
    }

    func scheduleDispatch() {
        guard !dispatchScheduled else { return }
        dispatchScheduled = true
        queue.async {
            self.dispatchScheduled = false
            guard self.isOpen else { return } // closed (and freed) meanwhile
            self.dispatchAll()
        }
    }

    func dispatchAll() {
        while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
    }

    private func watchChanged(_ watch: OpaquePointer) {
        let sources = watches[watch] ?? WatchSources()
        watches[watch] = sources
        sources.cancel()
        guard dbus_watch_get_enabled(watch) != 0 else { return }
        let descriptor = dbus_watch_get_unix_fd(watch)
        let flags = dbus_watch_get_flags(watch)
        if flags & DBUS_WATCH_READABLE.rawValue != 0 {
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler { [unowned self] in handle(watch, DBUS_WATCH_READABLE.rawValue) }
            sources.read = source
            source.resume()
        }
        if flags & DBUS_WATCH_WRITABLE.rawValue != 0 {
            let source = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler { [unowned self] in handle(watch, DBUS_WATCH_WRITABLE.rawValue) }
            sources.write = source
            source.resume()
        }
    }

    private func handle(_ watch: OpaquePointer, _ condition: UInt32) {
        guard isOpen, watches[watch] != nil else { return }
        _ = dbus_watch_handle(watch, condition)
        dispatchAll()
        if dbus_connection_get_is_connected(raw) == 0 { connectionLost() }
    }

    private func removeWatch(_ watch: OpaquePointer) {
        watches.removeValue(forKey: watch)?.cancel()
    }

    private func timeoutChanged(_ timeout: OpaquePointer) {
        timers.removeValue(forKey: timeout)?.cancel()
        guard dbus_timeout_get_enabled(timeout) != 0 else { return }
        let interval = DispatchTimeInterval.milliseconds(Int(dbus_timeout_get_interval(timeout)))
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [unowned self] in
            guard isOpen, timers[timeout] != nil else { return }
            _ = dbus_timeout_handle(timeout)
            dispatchAll()
        }
        timers[timeout] = timer
        timer.resume()
    }

    private func removeTimeout(_ timeout: OpaquePointer) {
        timers.removeValue(forKey: timeout)?.cancel()
    }
}
