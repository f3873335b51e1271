/// BlueZ's D-Bus names (bluez `doc/org.bluez.*.rst`, 5.66): one place for the strings.
public enum BlueZNames {
    public static let busName = "org.bluez"
    public static let root = "/org/bluez"
    public static let adapter = "org.bluez.Adapter1"
    public static let device = "org.bluez.Device1"
    public static let gattService = "org.bluez.GattService1"
    public static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    public static let battery = "org.bluez.Battery1"
}
