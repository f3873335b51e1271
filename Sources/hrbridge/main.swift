import CLI
import CSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

_ = hr_disable_transparent_huge_pages() // before any thread: stacks and heaps in 4 KB pages
exit(HRBridge.main(Array(CommandLine.arguments.dropFirst())))
