import CLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(HRBridge.main(Array(CommandLine.arguments.dropFirst())))
