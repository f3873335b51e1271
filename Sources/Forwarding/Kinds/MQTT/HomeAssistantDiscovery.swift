import FoundationEssentials

/// Home Assistant's MQTT discovery (`--mqtt-discovery`): on connect, one retained configuration per
/// sensor under `homeassistant/sensor/<gateway node>/<strap>_<sensor>/config` (one node per gateway,
/// so a broker ACL can give each gateway its own: `pattern write homeassistant/sensor/hrbridge-%u/#`),
/// which makes each strap a device with
/// a heart-rate (bpm) and a distance (m) sensor read from its retained state, available while the
/// gateway's status topic says `online`. (The updates carry no battery level, so there is no battery
/// sensor.) https://www.home-assistant.io/integrations/sensor.mqtt/ and …/mqtt/#mqtt-discovery
enum HomeAssistantDiscovery {
    static let prefix = "homeassistant"

    struct Device: Encodable {
        var identifiers: [String]
        var name: String
        var manufacturer = "hrbridge"
        var model = "heart-rate strap"
    }

    struct SensorConfiguration: Encodable {
        var name: String
        var uniqueID: String
        var objectID: String
        var stateTopic: String
        var valueTemplate: String
        var unitOfMeasurement: String
        var deviceClass: String?
        var stateClass = "measurement"
        var icon: String?
        var availabilityTopic: String
        var payloadAvailable = "online"
        var payloadNotAvailable = "offline"
        var device: Device

        enum CodingKeys: String, CodingKey {
            case name, icon, device
            case uniqueID = "unique_id"
            case objectID = "object_id"
            case stateTopic = "state_topic"
            case valueTemplate = "value_template"
            case unitOfMeasurement = "unit_of_measurement"
            case deviceClass = "device_class"
            case stateClass = "state_class"
            case availabilityTopic = "availability_topic"
            case payloadAvailable = "payload_available"
            case payloadNotAvailable = "payload_not_available"
        }
    }

    /// The device id: gateway prefix and strap, so two gateways' straps of one name stay two devices.
    static func device(_ topics: MQTTTopics) -> String {
        MQTTTopics.level(topics.prefix) + "_" + topics.strap
    }

    static func configurations(topics: MQTTTopics) -> [MQTTPublication] {
        let node = device(topics)
        let device = Device(identifiers: [node], name: "\(topics.strap) (\(topics.prefix))")
        let sensors = [
            SensorConfiguration(
                name: "Heart rate", uniqueID: node + "_heart_rate", objectID: node + "_heart_rate", stateTopic: topics.state,
                valueTemplate: template("heartRate"), unitOfMeasurement: "bpm", deviceClass: nil, icon: "mdi:heart-pulse",
                availabilityTopic: topics.status, device: device),
            SensorConfiguration(
                name: "Distance", uniqueID: node + "_distance", objectID: node + "_distance", stateTopic: topics.state,
                valueTemplate: template("distanceMeters"), unitOfMeasurement: "m", deviceClass: "distance", icon: nil,
                availabilityTopic: topics.status, device: device),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return sensors.map { sensor in
            let sensorID = String(sensor.uniqueID.dropFirst(node.count + 1))
            // Encoding strings and numbers cannot fail.
            let payload = (try? encoder.encode(sensor)).map(Array.init) ?? []
            return MQTTPublication(topic: "\(prefix)/sensor/\(MQTTTopics.level(topics.prefix))/\(topics.strap)_\(sensorID)/config",
                                   payload: payload, retain: true)
        }
    }

    /// The content-state field, or none (unknown) when the state was cleared or has no such field
    /// (no heart rate while the strap is lost).
    static func template(_ field: String) -> String {
        "{{ value_json.contentState.\(field) if value_json is defined and value_json.contentState.\(field) is defined else none }}"
    }
}
