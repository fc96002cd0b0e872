/* test_dist.c — the distributed runtime (mpi/dist.h). Run plainly, it checks
 * the single-process behaviour (the stub of a build without MPI, or MPI not
 * started); run by ctest's mpi_test_dist as `mpirun -np 3` (DAMA_MPI_RANKS
 * set) in a -DDAMA_MPI=ON build, it starts MPI and checks the collectives
 * and messages against values worked out here in rank order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "dist/dist.h"

/* Rank r's contribution to element i of the sums: values of very different
 * size, so that another order of the additions gives other bits. */
static double contribution(int r, size_t i)
{
    static const double TABLE[] = {1e16, 1.0, -1e16, 0.1, 3.0e-17, -0.7, 2.5e8, 1.0 / 3.0};
    return TABLE[(i + (size_t)r * 3) % 8] * (1.0 + (double)r * 0.37) + (double)i * 1e-3;
}

static void test_single_process(void **state)
{
    (void)state;
    if (dist_active()) skip();
    char err[ERR_MAX] = "";
    assert_int_equal(dist_rank(), 0);
    assert_int_equal(dist_size(), 1);
    double v[3] = {1.5, -2.25, 1e300};
    assert_int_equal(dist_sum_doubles(v, 3, err), 0);
    assert_true(v[0] == 1.5 && v[1] == -2.25 && v[2] == 1e300);
    int64_t n[2] = {INT64_MAX, -7};
    assert_int_equal(dist_sum_int64(n, 2, err), 0);
    assert_true(n[0] == INT64_MAX && n[1] == -7);
    double all[3] = {0, 0, 0};
    size_t lens[1] = {3};
    assert_int_equal(dist_allgather_doubles(v, lens, all, err), 0);
    assert_memory_equal(all, v, sizeof v);
    int src = -1, tag = -1;
    size_t size = 99;
    assert_int_equal(dist_poll(&src, &tag, &size, err), 0);
    assert_int_equal(dist_send_bytes(0, 1, v, sizeof v, err), -1);
    assert_non_null(strstr(err, "dist_send_bytes"));
    assert_int_equal(dist_barrier(err), 0);
    if (!dist_built()) { /* the stub names the build option */
        assert_int_equal(dist_init(err), -1);
        assert_string_equal(err, DIST_NOT_BUILT);
        assert_false(dist_active());
    }
}

static void test_sum_doubles_rank_order(void **state)
{
    (void)state;
    if (!dist_active()) skip();
    char err[ERR_MAX] = "";
    int n = dist_size(), me = dist_rank();
    enum { LEN = 1000 };
    double v[LEN], want[LEN];
    for (size_t i = 0; i < LEN; i++) {
        v[i] = contribution(me, i);
        want[i] = contribution(0, i);
        for (int r = 1; r < n; r++) want[i] += contribution(r, i);
    }
    assert_int_equal(dist_sum_doubles(v, LEN, err), 0);
    assert_memory_equal(v, want, sizeof v); /* bit for bit */
    /* A length of 0 is a no-op, not a hang. */
    assert_int_equal(dist_sum_doubles(v, 0, err), 0);
}

static void test_sum_int64(void **state)
{
    (void)state;
    if (!dist_active()) skip();
    char err[ERR_MAX] = "";
    int n = dist_size(), me = dist_rank();
    int64_t v[3] = {me, (int64_t)1 << 40, -(int64_t)me * me};
    assert_int_equal(dist_sum_int64(v, 3, err), 0);
    int64_t sq = 0;
    for (int r = 0; r < n; r++) sq += (int64_t)r * r;
    assert_true(v[0] == (int64_t)n * (n - 1) / 2);
    assert_true(v[1] == (int64_t)n << 40);
    assert_true(v[2] == -sq);
}

static void test_allgather_rank_order(void **state)
{
    (void)state;
    if (!dist_active()) skip();
    char err[ERR_MAX] = "";
    int n = dist_size(), me = dist_rank();
    size_t lens[16], total = 0;
    assert_true(n <= 16);
    for (int r = 0; r < n; r++) total += lens[r] = (size_t)r + 1; /* rank r sends r + 1 doubles */
    double mine[16], all[16 * 17 / 2];
    for (int k = 0; k <= me; k++) mine[k] = 100.0 * me + k;
    assert_int_equal(dist_allgather_doubles(mine, lens, all, err), 0);
    size_t at = 0;
    for (int r = 0; r < n; r++)
        for (int k = 0; k <= r; k++) assert_true(all[at++] == 100.0 * r + k);
    assert_int_equal(at, total);
}

static void test_bcast_and_messages(void **state)
{
    (void)state;
    if (!dist_active()) skip();
    char err[ERR_MAX] = "";
    int n = dist_size(), me = dist_rank();
    char text[32] = "";
    if (me == n - 1) snprintf(text, sizeof text, "from the last rank, %d", n - 1);
    assert_int_equal(dist_bcast_bytes(text, sizeof text, n - 1, err), 0);
    char want[32];
    snprintf(want, sizeof want, "from the last rank, %d", n - 1);
    assert_string_equal(text, want);
    /* A ring: each rank sends its number to the next, polls for the
     * previous one's (sleeping between polls) and checks what came. */
    int next = (me + 1) % n, prev = (me + n - 1) % n;
    int64_t out[2] = {me, 7000 + me}, in[2] = {-1, -1};
    if (n > 1) {
        assert_int_equal(dist_send_bytes(next, 5, out, sizeof out, err), 0);
        int src = -1, tag = -1, got = 0;
        size_t size = 0;
        for (int tries = 0; tries < 20000 && got == 0; tries++) {
            got = dist_poll(&src, &tag, &size, err);
            if (got == 0) nanosleep(&(struct timespec){0, 500000}, NULL);
        }
        assert_int_equal(got, 1);
        assert_int_equal(src, prev);
        assert_int_equal(tag, 5);
        assert_int_equal(size, sizeof in);
        assert_int_equal(dist_recv_bytes(src, tag, in, size, err), 0);
        assert_true(in[0] == prev && in[1] == 7000 + prev);
    }
    assert_int_equal(dist_barrier(err), 0);
}

int main(void)
{
    const char *ranks = getenv("DAMA_MPI_RANKS");
    if (ranks && dist_built()) {
        char err[ERR_MAX];
        if (dist_init(err) != 0) {
            fprintf(stderr, "test_dist: %s\n", err);
            return 1;
        }
        if (dist_size() != atoi(ranks)) {
            fprintf(stderr, "test_dist: %d ranks, DAMA_MPI_RANKS says %s\n", dist_size(), ranks);
            dist_abort(1);
        }
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_process),
        cmocka_unit_test(test_sum_doubles_rank_order),
        cmocka_unit_test(test_sum_int64),
        cmocka_unit_test(test_allgather_rank_order),
        cmocka_unit_test(test_bcast_and_messages),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    /* A failed rank must not leave the others in a collective. */
    if (failed && dist_active()) dist_abort(1);
    dist_finalize();
    return failed;
}
