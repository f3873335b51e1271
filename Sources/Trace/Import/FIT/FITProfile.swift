/// The part of the FIT profile (Garmin's FIT SDK, Profile.xlsx) that hrbridge reads: global
/// message numbers, and the field numbers within those messages, with their units.
enum FITProfile {
    enum Message {
        static let fileID: UInt16 = 0
        static let sport: UInt16 = 12
        static let session: UInt16 = 18
        static let record: UInt16 = 20
        static let event: UInt16 = 21
        static let deviceInfo: UInt16 = 23
        static let hrv: UInt16 = 78
    }

    enum FileID {
        static let manufacturer: UInt8 = 1
        static let product: UInt8 = 2
        static let productName: UInt8 = 8
    }

    enum DeviceInfo {
        /// 0 is the device that created the file.
        static let deviceIndex: UInt8 = 0
        static let creator: Int64 = 0
        static let manufacturer: UInt8 = 2
        static let product: UInt8 = 4
        static let productName: UInt8 = 27
    }

    enum Sport {
        /// In a `sport` message; a `session` has it as `sessionSport`.
        static let sport: UInt8 = 0
        static let sessionSport: UInt8 = 5
        static let running: Int64 = 1
    }

    enum Record {
        /// bpm
        static let heartRate: UInt8 = 3
        /// rpm: for running, strides (one foot's steps) per minute
        static let cadence: UInt8 = 4
        /// 1/100 m
        static let distance: UInt8 = 5
        /// 1/1000 m/s, uint16
        static let speed: UInt8 = 6
        /// 1/1000 m/s, uint32: the same speed with room above 65.535 m/s, preferred when present
        static let enhancedSpeed: UInt8 = 73
    }

    enum Event {
        static let event: UInt8 = 0
        static let eventType: UInt8 = 1
        /// `event` value: the workout's timer (the watch's start/stop button, auto-pause).
        static let timer: Int64 = 0
        static let start: Int64 = 0
        static let stop: Int64 = 1
        static let stopAll: Int64 = 4
    }

    enum HRV {
        /// An array of RR intervals in 1/1000 s; unused slots hold the invalid value.
        static let time: UInt8 = 0
    }
}
