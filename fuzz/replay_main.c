/* replay_main.c — runs a fuzz target's LLVMFuzzerTestOneInput on files,
 * without libFuzzer: the ordinary test suite replays every seed corpus and
 * every saved crash (fuzz/regressions/<target>/) through the same contract
 * checks, in the Release and the sanitizer builds.
 *
 * usage: fuzz_X PATH...   (a file, or a folder whose files are all read)
 * Exit 0 when every input passed (a broken contract aborts), 2 when a path
 * cannot be read or holds no input. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, len = 0, n;
    uint8_t *buf = malloc(cap);
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "out of memory reading %s\n", path);
        return -1;
    }
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

static int compare(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every regular file of a folder, in name order. Returns the count or -1. */
static int run_dir(const char *path)
{
    DIR *d = opendir(path);
    if (!d) return -1;
    char **names = NULL;
    int len = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        names = realloc(names, sizeof *names * (size_t)(len + 1));
        names[len++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)len, sizeof *names, compare);
    int rc = len;
    for (int i = 0; i < len; i++) {
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", path, names[i]);
        if (run_file(full) != 0) rc = -1;
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    int inputs = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "cannot read %s\n", argv[i]);
            return 2;
        }
        int n = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]) == 0 ? 1 : -1;
        if (n < 0) return 2;
        if (n == 0) {
            fprintf(stderr, "%s holds no input\n", argv[i]);
            return 2;
        }
        inputs += n;
    }
    printf("%d inputs passed\n", inputs);
    return inputs > 0 ? 0 : 2;
}
