/* dist.c — MPI behind dist.h, or its single-process stub. */
#include "dist/dist.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef DAMA_MPI
#include <mpi.h>

/* MPI is process-wide state already; this only remembers whether dist_init
 * started it (so dist_finalize ends only what it began). */
static bool started;

bool dist_built(void) { return true; }

/* err = "what: MPI's message for code"; returns -1. */
static int mpi_fail(int code, const char *what, char err[ERR_MAX])
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(code, msg, &len) != MPI_SUCCESS) snprintf(msg, sizeof msg, "error %d", code);
    snprintf(err, ERR_MAX, "%.60s: %.180s", what, msg);
    return -1;
}

int dist_init(char err[ERR_MAX])
{
    if (started) return 0;
    int provided = 0, rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
    if (rc != MPI_SUCCESS) return mpi_fail(rc, "MPI_Init_thread", err);
    started = true;
    /* Errors come back as codes (with a message) instead of aborting in
     * the library, so the caller can name what failed. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (provided < MPI_THREAD_FUNNELED) {
        snprintf(err, ERR_MAX, "MPI_Init_thread: the MPI library gives thread level %d, below MPI_THREAD_FUNNELED (%d)",
                 provided, MPI_THREAD_FUNNELED);
        return -1;
    }
    return 0;
}

bool dist_active(void) { return started; }

void dist_finalize(void)
{
    if (!started) return;
    MPI_Finalize();
    started = false;
}

int dist_rank(void)
{
    int r = 0;
    if (started) MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

int dist_size(void)
{
    int n = 1;
    if (started) MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
}

_Noreturn void dist_abort(int code)
{
    fflush(stdout);
    fflush(stderr);
    if (started) MPI_Abort(MPI_COMM_WORLD, code);
    exit(code);
}

int dist_barrier(char err[ERR_MAX])
{
    if (!started) return 0;
    int rc = MPI_Barrier(MPI_COMM_WORLD);
    return rc == MPI_SUCCESS ? 0 : mpi_fail(rc, "MPI_Barrier", err);
}

/* MPI counts are int: pieces of at most this many elements. */
enum { CHUNK = 1 << 26 };

int dist_sum_doubles(double *v, size_t len, char err[ERR_MAX])
{
    int n = dist_size(), me = dist_rank();
    if (n == 1 || len == 0) return 0;
    /* Gathered on rank 0 in pieces, added in rank order there, broadcast:
     * MPI_Allreduce may add in any order (and differently for other rank
     * counts), which changes the last bits of a sum. */
    size_t piece = len < CHUNK ? len : CHUNK;
    double *all = me == 0 ? malloc(sizeof(double) * piece * (size_t)n) : NULL;
    if (me == 0 && !all) {
        snprintf(err, ERR_MAX, "dist_sum_doubles: out of memory for %zu doubles", piece * (size_t)n);
        dist_abort(1);
    }
    for (size_t at = 0; at < len; at += piece) {
        int cnt = (int)(len - at < piece ? len - at : piece);
        int rc = MPI_Gather(v + at, cnt, MPI_DOUBLE, all, cnt, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) {
            free(all);
            return mpi_fail(rc, "MPI_Gather", err);
        }
        if (me == 0)
            for (int i = 0; i < cnt; i++) {
                double s = all[i];
                for (int r = 1; r < n; r++) s += all[(size_t)r * (size_t)cnt + (size_t)i];
                v[at + (size_t)i] = s;
            }
        rc = MPI_Bcast(v + at, cnt, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) {
            free(all);
            return mpi_fail(rc, "MPI_Bcast", err);
        }
    }
    free(all);
    return 0;
}

int dist_sum_int64(int64_t *v, size_t len, char err[ERR_MAX])
{
    if (dist_size() == 1 || len == 0) return 0;
    for (size_t at = 0; at < len; at += CHUNK) {
        int cnt = (int)(len - at < CHUNK ? len - at : CHUNK);
        int rc = MPI_Allreduce(MPI_IN_PLACE, v + at, cnt, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) return mpi_fail(rc, "MPI_Allreduce", err);
    }
    return 0;
}

int dist_allgather_doubles(const double *mine, const size_t *lens, double *all, char err[ERR_MAX])
{
    int n = dist_size(), me = dist_rank();
    if (n == 1) {
        if (lens[0]) memcpy(all, mine, sizeof(double) * lens[0]);
        return 0;
    }
    int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
    if (!counts || !displs) {
        free(counts), free(displs);
        snprintf(err, ERR_MAX, "dist_allgather_doubles: out of memory");
        return -1;
    }
    size_t total = 0;
    for (int r = 0; r < n; r++) {
        if (lens[r] > INT_MAX || total + lens[r] > INT_MAX) {
            free(counts), free(displs);
            snprintf(err, ERR_MAX, "dist_allgather_doubles: %zu doubles from rank %d is over MPI's int count", lens[r], r);
            return -1;
        }
        counts[r] = (int)lens[r];
        displs[r] = (int)total;
        total += lens[r];
    }
    int rc = MPI_Allgatherv(mine, counts[me], MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    free(counts), free(displs);
    return rc == MPI_SUCCESS ? 0 : mpi_fail(rc, "MPI_Allgatherv", err);
}

int dist_bcast_bytes(void *buf, size_t size, int root, char err[ERR_MAX])
{
    if (dist_size() == 1) return 0;
    for (size_t at = 0; at < size; at += CHUNK) {
        int cnt = (int)(size - at < CHUNK ? size - at : CHUNK);
        int rc = MPI_Bcast((char *)buf + at, cnt, MPI_BYTE, root, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) return mpi_fail(rc, "MPI_Bcast", err);
    }
    return 0;
}

int dist_send_bytes(int dest, int tag, const void *buf, size_t size, char err[ERR_MAX])
{
    if (!started) {
        snprintf(err, ERR_MAX, "dist_send_bytes: MPI is not started");
        return -1;
    }
    if (size > INT_MAX) {
        snprintf(err, ERR_MAX, "dist_send_bytes: %zu bytes is over MPI's int count", size);
        return -1;
    }
    int rc = MPI_Send(buf, (int)size, MPI_BYTE, dest, tag, MPI_COMM_WORLD);
    return rc == MPI_SUCCESS ? 0 : mpi_fail(rc, "MPI_Send", err);
}

int dist_send_bytes_polled(int dest, int tag, const void *buf, size_t size, int wait_ms, char err[ERR_MAX])
{
    if (!started) {
        snprintf(err, ERR_MAX, "dist_send_bytes_polled: MPI is not started");
        return -1;
    }
    if (size > INT_MAX) {
        snprintf(err, ERR_MAX, "dist_send_bytes_polled: %zu bytes is over MPI's int count", size);
        return -1;
    }
    MPI_Request req;
    int rc = MPI_Isend(buf, (int)size, MPI_BYTE, dest, tag, MPI_COMM_WORLD, &req);
    if (rc != MPI_SUCCESS) return mpi_fail(rc, "MPI_Isend", err);
    for (;;) {
        int flag = 0;
        rc = MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) return mpi_fail(rc, "MPI_Test", err);
        if (flag) return 0;
        struct timespec ts = {0, (long)(wait_ms > 0 ? wait_ms : 1) * 1000000L};
        nanosleep(&ts, NULL);
    }
}

int dist_poll(int *src, int *tag, size_t *size, char err[ERR_MAX])
{
    if (!started) return 0;
    int flag = 0;
    MPI_Status st;
    int rc = MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (rc != MPI_SUCCESS) return mpi_fail(rc, "MPI_Iprobe", err);
    if (!flag) return 0;
    int cnt = 0;
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    *src = st.MPI_SOURCE;
    *tag = st.MPI_TAG;
    *size = (size_t)cnt;
    return 1;
}

int dist_recv_bytes(int src, int tag, void *buf, size_t size, char err[ERR_MAX])
{
    if (!started) {
        snprintf(err, ERR_MAX, "dist_recv_bytes: MPI is not started");
        return -1;
    }
    if (size > INT_MAX) {
        snprintf(err, ERR_MAX, "dist_recv_bytes: %zu bytes is over MPI's int count", size);
        return -1;
    }
    int rc = MPI_Recv(buf, (int)size, MPI_BYTE, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return rc == MPI_SUCCESS ? 0 : mpi_fail(rc, "MPI_Recv", err);
}

#else /* the single-process stub: rank 0 of 1 */

bool dist_built(void) { return false; }

int dist_init(char err[ERR_MAX])
{
    snprintf(err, ERR_MAX, "%s", DIST_NOT_BUILT);
    return -1;
}

bool dist_active(void) { return false; }
void dist_finalize(void) {}
int dist_rank(void) { return 0; }
int dist_size(void) { return 1; }

_Noreturn void dist_abort(int code)
{
    fflush(stdout);
    fflush(stderr);
    exit(code);
}

int dist_barrier(char err[ERR_MAX])
{
    (void)err;
    return 0;
}

int dist_sum_doubles(double *v, size_t len, char err[ERR_MAX])
{
    (void)v, (void)len, (void)err;
    return 0;
}

int dist_sum_int64(int64_t *v, size_t len, char err[ERR_MAX])
{
    (void)v, (void)len, (void)err;
    return 0;
}

int dist_allgather_doubles(const double *mine, const size_t *lens, double *all, char err[ERR_MAX])
{
    (void)err;
    if (lens[0]) memcpy(all, mine, sizeof(double) * lens[0]);
    return 0;
}

int dist_bcast_bytes(void *buf, size_t size, int root, char err[ERR_MAX])
{
    (void)buf, (void)size, (void)root, (void)err;
    return 0;
}

int dist_send_bytes(int dest, int tag, const void *buf, size_t size, char err[ERR_MAX])
{
    (void)dest, (void)tag, (void)buf, (void)size;
    snprintf(err, ERR_MAX, "dist_send_bytes: %s", DIST_NOT_BUILT);
    return -1;
}

int dist_send_bytes_polled(int dest, int tag, const void *buf, size_t size, int wait_ms, char err[ERR_MAX])
{
    (void)wait_ms;
    return dist_send_bytes(dest, tag, buf, size, err);
}

int dist_poll(int *src, int *tag, size_t *size, char err[ERR_MAX])
{
    (void)src, (void)tag, (void)size, (void)err;
    return 0;
}

int dist_recv_bytes(int src, int tag, void *buf, size_t size, char err[ERR_MAX])
{
    (void)src, (void)tag, (void)buf, (void)size;
    snprintf(err, ERR_MAX, "dist_recv_bytes: %s", DIST_NOT_BUILT);
    return -1;
}

#endif
