import Platform

/// Home Assistant's MQTT discovery (`--mqtt-discovery`): on connect, one retained configuration per
/// sensor under `homeassistant/sensor/<gateway node>/<strap>_<sensor>/config` (one node per gateway,
/// so a broker ACL can give each gateway its own: `pattern write homeassistant/sensor/hrbridge-%u/#`),
/// which makes each strap a device with
/// a heart-rate (bpm) and a distance (m) sensor read from its retained state, available while the
/// gateway's status topic says `online`. (The updates carry no battery level, so there is no battery
/// sensor.) https://www.home-assistant.io/integrations/sensor.mqtt/ and …/mqtt/#mqtt-discovery
enum HomeAssistantDiscovery {
    static let prefix = "homeassistant"

    struct Device {
        var identifiers: [String]
        var name: String
        var manufacturer = "hrbridge"
        var model = "heart-rate strap"
    }

    struct SensorConfiguration {
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

        /// Home Assistant's keys, sorted, absent ones left out, slashes as they are.
        var payload: [UInt8] {
            var json = JSONBytes(capacity: 640)
            func text(_ key: StaticString, _ value: String?) {
                guard let value else { return }
                json.key(key)
                json.string(value, escapingSlash: false)
            }
            json.beginObject()
            text("availability_topic", availabilityTopic)
            json.key("device")
            json.beginObject()
            json.key("identifiers")
            json.array(device.identifiers) { $0.string($1, escapingSlash: false) }
            text("manufacturer", device.manufacturer)
            text("model", device.model)
            text("name", device.name)
            json.endObject()
            text("device_class", deviceClass)
            text("icon", icon)
            text("name", name)
            text("object_id", objectID)
            text("payload_available", payloadAvailable)
            text("payload_not_available", payloadNotAvailable)
            text("state_class", stateClass)
            text("state_topic", stateTopic)
            text("unique_id", uniqueID)
            text("unit_of_measurement", unitOfMeasurement)
            text("value_template", valueTemplate)
            json.endObject()
            return json.bytes
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
        return sensors.map { sensor in
            let sensorID = String(sensor.uniqueID.dropFirst(node.count + 1))
            return MQTTPublication(topic: "\(prefix)/sensor/\(MQTTTopics.level(topics.prefix))/\(topics.strap)_\(sensorID)/config",
                                   payload: sensor.payload, retain: true)
        }
    }

    /// The content-state field, or none (unknown) when the state was cleared or has no such field
    /// (no heart rate while the strap is lost).
    static func template(_ field: String) -> String {
        "{{ value_json.contentState.\(field) if value_json is defined and value_json.contentState.\(field) is defined else none }}"
    }
}
