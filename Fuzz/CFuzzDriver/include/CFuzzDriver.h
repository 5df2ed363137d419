// libFuzzer's driver entry point (compiler-rt, FuzzerInterface.h). SwiftPM links an executable
// with `--defsym main=<module>_main`, so in a fuzz build the target's own main runs and hands
// control to libFuzzer through this. Only referenced when built with -DFUZZING.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
