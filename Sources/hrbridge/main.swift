import CLI
import CSystem
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

_ = hr_disable_transparent_huge_pages() // before any thread: stacks and heaps in 4 KB pages
TaskQueue.install() // before any task: no libdispatch pool monitor waking the bridge every second
exit(HRBridge.main(Array(CommandLine.arguments.dropFirst())))
