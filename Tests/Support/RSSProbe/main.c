// rss-probe OUT PROGRAM [ARG...]: runs PROGRAM (standard streams inherited), waits for it with
// wait4 and writes its peak resident set (ru_maxrss, KiB on Linux) to the file OUT; exits with its
// status, or 128 + the signal that ended it.
//
// Why a helper: a child spawned straight from the test process (posix_spawn shares the parent's
// memory until exec) inherits the parent's peak in ru_maxrss, so a 70 MB test process would hide a
// 20 MB child. This small process forks (a copy of its own ~1 MB) before the exec, so the figure is
// the program's own.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: rss-probe OUT PROGRAM [ARG...]\n");
        return 64;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("rss-probe: fork");
        return 71;
    }
    if (pid == 0) {
        execv(argv[2], argv + 2);
        perror("rss-probe: exec");
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            perror("rss-probe: wait4");
            return 71;
        }
    }
    FILE *out = fopen(argv[1], "w");
    if (out == NULL) {
        perror("rss-probe: OUT");
        return 73;
    }
    fprintf(out, "%ld\n", (long)usage.ru_maxrss);
    fclose(out);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
