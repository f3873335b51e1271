/// BlueZ's D-Bus names (bluez `doc/org.bluez.*.rst`, 5.66): one place for the strings.
public enum BlueZNames {
    public static let busName = "org.bluez"
    public static let root = "/org/bluez"
    public static let adapter = "org.bluez.Adapter1"
    public static let device = "org.bluez.Device1"
    public static let gattService = "org.bluez.GattService1"
    public static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    public static let battery = "org.bluez.Battery1"
    /// The peripheral role: the adapter's managers, and the interfaces bluetoothd calls on our objects.
    public static let gattManager = "org.bluez.GattManager1"
    public static let advertisingManager = "org.bluez.LEAdvertisingManager1"
    public static let advertisement = "org.bluez.LEAdvertisement1"
    /// BlueZ's error when an object is registered already (our own, from before a re-registration).
    public static let alreadyExists = "org.bluez.Error.AlreadyExists"
}
