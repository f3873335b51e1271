/// The device that wrote a FIT file, for the trace's header and note: the product name when the
/// file gives one, else the manufacturer and product numbers of its FIT profile (e.g.
/// `manufacturer 1 product 2697`, a Garmin fenix 5), since hrbridge keeps no table of names. The
/// `file_id` message and the creator's `device_info` both describe it; the first to say wins.
struct FITDeviceName {
    private var manufacturer: Int64?
    private var product: Int64?
    private var productName: String?

    mutating func read(_ message: FITDataMessage, manufacturer manufacturerField: UInt8, product productField: UInt8, productName nameField: UInt8) {
        manufacturer = manufacturer ?? message.field(manufacturerField)?.integer()
        product = product ?? message.field(productField)?.integer()
        productName = productName ?? message.field(nameField)?.string
    }

    var name: String? {
        if let productName { return productName }
        guard let manufacturer else { return nil }
        return "manufacturer \(manufacturer)" + (product.map { " product \($0)" } ?? "")
    }
}
