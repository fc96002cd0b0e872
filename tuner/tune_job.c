/* tune_job.c — the tuning pipeline of tune_job.h: the options, the split,
 * K, the training set's shaping, Adam (tuner/texel.c) and storage; the
 * positions come from tune_load.c (over several ranks tune_shard.c). */
#include "tuner/tune_job.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "db/weight_sets.h"
#include "engine/eval.h"
#include "engine/resolve.h"
#include "engine/weights_file.h"
#include "util/text.h"
#include "engine/weights_id.h"
#include "tuner/tune_job_internal.h"
#include "util/clock.h"
#include "util/rng.h"

typedef struct EpochCtx {
    Db *db;
    int64_t tuning_id;
    bool verbose;
    FILE *log;
    volatile int *stop;
    int last_printed;  /* epoch of the last line in the log, or -1 */
    TexelEpoch last;   /* the newest epoch (last.epoch -1: none yet) */
    char err[ERR_MAX];
    int failed;
    int stopped; /* epoch after which a signal stopped the run, or -1 */
} EpochCtx;

const char *tune_loss_text(double loss, int digits, char out[TUNE_LOSS_TEXT_MAX])
{
    if (isnan(loss)) snprintf(out, TUNE_LOSS_TEXT_MAX, "-");
    else snprintf(out, TUNE_LOSS_TEXT_MAX, "%.*f", digits, loss);
    return out;
}

static void log_epoch(EpochCtx *c, const TexelEpoch *e)
{
    char vl[TUNE_LOSS_TEXT_MAX];
    fprintf(c->log, "epoch %4d: train %.6f  valid %s%s\n", e->epoch, e->train_loss, tune_loss_text(e->valid_loss, 6, vl),
            e->best ? "  *" : "");
    c->last_printed = e->epoch;
}

static int on_epoch(void *ctx, const TexelEpoch *e)
{
    EpochCtx *c = ctx;
    c->last = *e;
    if (c->db && db_tuning_epoch_insert(c->db, c->tuning_id, e->epoch, e->train_loss, e->valid_loss, c->err) != 0) {
        c->failed = 1;
        return 1;
    }
    bool stop = c->stop && *c->stop;
    if (stop) c->stopped = e->epoch; /* the first signal: stop after this epoch */
    if (c->log && (c->verbose || e->epoch % 25 == 0 || stop)) log_epoch(c, e);
    return stop ? 1 : 0;
}

int tune_job_threads(int threads) { return threads > 0 ? threads : omp_get_num_procs(); }

bool tune_job_valid_runs(const char *s)
{
    bool digit = false;
    for (; *s; s++) {
        if (*s >= '0' && *s <= '9') digit = true;
        else if (*s == ',' && digit) digit = false;
        else return false;
    }
    return digit;
}

void tune_job_options_default(TuneJobOptions *o, const Game *game)
{
    *o = (TuneJobOptions){.game = game, .start_spec = "default", .valid = 0.1, .epochs = 400, .lr = 2,
                          .lambda = 1e-7, .pattern_lr = 0, .pattern_lambda = -1, .patience = 30,
                          .threads = 1, .seed = 1, .share = 1};
}

/* A training position's sampling key: its game's key and its ply, so the
 * choice depends on what the games are (as the split does), not on ids. */
static uint64_t sample_key(uint64_t seed, uint64_t game_key, int32_t ply)
{
    return rng_derive(seed ^ 0x5A3C96E1D2B4F087ULL, game_key ^ (uint64_t)(uint32_t)ply * 0x9E3779B97F4A7C15ULL);
}

typedef struct KeyIdx {
    uint64_t key;
    uint32_t idx;
} KeyIdx;

static int key_idx_cmp(const void *pa, const void *pb)
{
    const KeyIdx *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The training set's data options, in this order (the validation set is
 * left whole, so validation losses stay comparable across them):
 * dedupe: positions with the same position key become one, the first in
 * the canonical order, its target the mean of theirs (each occurrence one
 * vote; the count is not kept as a weight); per_game: at most that many
 * positions of a game, those with the lowest sampling keys; share: a
 * position stays iff its sampling key < share * 2^64. */
static int shape_training(const TuneJobOptions *o, TexelData *data, TexelSplit *split, const uint64_t *gkeys,
                          const uint64_t *pkeys, const int32_t *plies, TuneJobResult *r, char err[ERR_MAX])
{
    const size_t n = split->train_len;
    uint8_t *drop = calloc(n ? n : 1, 1);
    KeyIdx *ki = malloc((n ? n : 1) * sizeof *ki);
    if (!drop || !ki) {
        free(drop), free(ki);
        snprintf(err, ERR_MAX, "out of memory shaping the training set");
        return -1;
    }
    if (o->dedupe) {
        for (size_t t = 0; t < n; t++) ki[t] = (KeyIdx){pkeys[split->train[t]], (uint32_t)t};
        qsort(ki, n, sizeof *ki, key_idx_cmp);
        for (size_t a = 0; a < n;) {
            size_t b = a + 1;
            double sum = texel_data_target(data, split->train[ki[a].idx]);
            for (; b < n && ki[b].key == ki[a].key; b++) {
                sum += texel_data_target(data, split->train[ki[b].idx]);
                drop[ki[b].idx] = 1;
                r->merged++;
            }
            if (b - a > 1) texel_data_set_target(data, split->train[ki[a].idx], sum / (double)(b - a));
            a = b;
        }
    }
    if (o->per_game > 0) { /* a game's positions are consecutive in the canonical order */
        for (size_t a = 0; a < n;) {
            size_t b = a, m = 0;
            for (; b < n && gkeys[split->train[b]] == gkeys[split->train[a]]; b++)
                if (!drop[b]) ki[m++] = (KeyIdx){sample_key(o->seed, gkeys[split->train[b]], plies[split->train[b]]), (uint32_t)b};
            if (m > (size_t)o->per_game) {
                qsort(ki, m, sizeof *ki, key_idx_cmp);
                for (size_t k = (size_t)o->per_game; k < m; k++) drop[ki[k].idx] = 1, r->sampled_out++;
            }
            a = b;
        }
    }
    if (o->share > 0 && o->share < 1) {
        const uint64_t threshold = (uint64_t)(o->share * 0x1.0p64);
        for (size_t t = 0; t < n; t++)
            if (!drop[t] && sample_key(o->seed, gkeys[split->train[t]], plies[split->train[t]]) >= threshold)
                drop[t] = 1, r->sampled_out++;
    }
    size_t kept = 0;
    for (size_t t = 0; t < n; t++)
        if (!drop[t]) split->train[kept++] = split->train[t];
    split->train_len = kept;
    free(drop), free(ki);
    return 0;
}

/* The run of this tune, claimed by rank 0 before the positions are loaded
 * (one transaction): the newest run of the same game, seed and
 * configuration that a killed or failed tune left without its end (no
 * tuning row yet, or one that never stored its result:
 * db_tuning_unfinished) is taken again and tuned from scratch under its
 * own ids (*tuning_id set when it has that row: the caller restarts it),
 * so a killed tune run again leaves the rows of one uninterrupted run;
 * else a new run (db_run_claim with DB_CLAIM_NEW). Either is refused
 * while another live process tunes it. Returns 0, DB_BUSY or -1 with err. */
static int tune_run_claim(const TuneJobOptions *o, int64_t *run_id, int64_t *tuning_id, char err[ERR_MAX])
{
    const char *config = o->config ? o->config : "";
    const char *game = o->game->name;
    char status[DB_STATUS_MAX] = "";
    int64_t id = 0, newest_tuning = 0;
    DbTuning row;
    DbClaim c;
    *run_id = *tuning_id = 0;
    int rc = db_begin(o->db, err);
    if (rc == 0) rc = db_run_find(o->db, "tune", game, o->seed, config, &id, status, err);
    bool again = false;
    if (rc == 0 && id && strcmp(status, "done") != 0) {
        rc = db_tuning_of_run(o->db, id, &newest_tuning, &row, err);
        if (rc == 0 && newest_tuning) rc = db_tuning_unfinished(o->db, id, tuning_id, err);
        again = rc == 0 && (!newest_tuning || *tuning_id);
    }
    if (rc != 0) {
        db_rollback(o->db);
        return -1;
    }
    if (again) rc = db_run_claim_id(o->db, id, &c, err);
    else rc = db_run_claim(o->db, DB_CLAIM_NEW, "tune", game, o->seed, config, NULL, &c, err);
    if (rc != 0) return rc; /* the claim rolled the transaction back */
    *run_id = c.id;
    if (!again) *tuning_id = 0;
    return db_commit(o->db, err);
}

TuneJobStatus tune_job_run(const TuneJobOptions *o, int32_t *tuned, TuneJobResult *r, char err[ERR_MAX])
{
    /* shared by ranks: only rank 0 writes (the database, out_path, the log) */
    const bool writer = !o->reducer || o->reducer->rank == 0;
    TuneJobOptions local = *o;
    if (!writer) local.log = NULL, local.out_path = NULL;
    o = &local;
    const Game *g = o->game;
    *r = (TuneJobResult){0};
    err[0] = '\0';
    uint8_t *frozen = calloc((size_t)g->weights_len, 1);
    uint8_t *table = calloc((size_t)g->weights_len, 1);
    const char **names = weight_names_new(g);
    TexelData *data = texel_data_new_tapered(g->weights_len, g->eg_offset, g->phase_max);
    LoadCtx lc = {.game = g, .weights = o->start, .data = data, .quiet_only = !o->all_positions, .stop = o->stop,
                  .egtb = o->egtb, .egtb_skip = o->egtb_skip};
    if (o->resolve && !o->all_positions) lc.resolver = resolver_new(g, 32, 100000);
    int rc = names && data && frozen && table && (lc.resolver || !o->resolve || o->all_positions) ? 0 : -1;
    if (rc != 0) snprintf(err, ERR_MAX, "out of memory");
    if (rc == 0) rc = tune_job_check_runs(o, err);
    /* The run is taken first, before the positions are loaded: a second
     * copy of this tune started with it is refused at once instead of
     * tuning the same positions again. It is removed again when nothing is
     * stored. */
    int64_t run_id = 0, tuning_id = 0;
    bool busy = false;
    if (rc == 0 && writer) {
        int crc = tune_run_claim(o, &run_id, &tuning_id, err);
        busy = crc == DB_BUSY;
        if (crc != 0) rc = -1, run_id = 0;
    }

    char filter[2048];
    double t0 = clock_now_s();
    if (rc == 0 || o->reducer) rc = tune_job_load(o, &data, filter, sizeof filter, &lc, rc, err);
    r->positions = lc.len;
    r->too_few = lc.too_few;
    r->skipped = lc.skipped;
    r->egtb_known = lc.egtb_known;
    r->egtb_changed = lc.egtb_changed;
    r->resolved = lc.resolved;
    resolver_free(lc.resolver);
    lc.resolver = NULL;
    if (rc != 0) {
        char derr[ERR_MAX];
        if (run_id) db_run_drop(o->db, run_id, derr);
        texel_data_free(data);
        free(lc.keys);
        free(lc.scores);
        free(lc.plies);
        free(lc.pkeys);
        free((void *)names);
        free(frozen);
        free(table);
        return busy ? TUNE_JOB_BUSY : lc.interrupted ? TUNE_JOB_STOPPED_LOADING : TUNE_JOB_FAILED;
    }
    texel_data_drop_evals(data); /* checked: 4 bytes a position less */
    texel_data_shrink(data);
    r->load_seconds = clock_now_s() - t0;
    r->bytes_per_position = texel_data_bytes_per_position(data);
    if (o->log) {
        fprintf(o->log,
                "tune %s: %zu positions loaded and checked in %.1f s (%.1f bytes/position; %lld skipped: a capture "
                "pending%s), %d thread%s\n",
                g->name, lc.len, r->load_seconds, r->bytes_per_position, (long long)lc.skipped,
                o->resolve ? " after resolving" : "", o->threads, TEXT_PLURAL(o->threads));
        if (o->resolve)
            fprintf(o->log, "resolve: %lld positions replaced by the quiet leaf of their capture line\n",
                    (long long)lc.resolved);
        if (o->egtb)
            fprintf(o->log, "egtb: %lld positions in the database, %s (%lld had another game result)\n",
                    (long long)lc.egtb_known, o->egtb_skip ? "left out" : "exact result as target",
                    (long long)lc.egtb_changed);
    }

    char terr[TEXEL_ERR_MAX] = "";
    TexelSplit split;
    rc = texel_split_make(&split, lc.len, lc.keys, o->valid, o->seed, terr);
    if (rc == 0 && split.valid_len == 0 && o->log) /* few games: the held-out guards have nothing to judge by */
        fprintf(o->log, "note: --valid %g held out no game of these: the best epoch is chosen by the training loss "
                "plus the L2 term, and the start is not compared with the result\n", o->valid);
    /* Blended targets: K is fitted on the game results first, then each
     * target mixes the result with the expected score of the search score,
     * 1 / (1 + 10^(-K score / 400)), scores of won games clamped. */
    double k = o->k;
    if (rc == 0 && o->score_weight > 0) {
        double kfit = k, kloss;
        if (kfit <= 0)
            rc = texel_fit_k_sharded(data, split.train, split.train_len, o->start, 0.01, 10, o->threads, o->reducer,
                                     &kfit, &kloss, terr);
        for (size_t i = 0; rc == 0 && i < lc.len; i++) {
            if (lc.scores[i] == INT32_MIN) continue;
            double s = lc.scores[i] > 3000 ? 3000 : lc.scores[i] < -3000 ? -3000 : lc.scores[i];
            double expected = 1.0 / (1.0 + pow(10.0, -kfit * s / 400.0));
            double target = (1 - o->score_weight) * texel_data_target(data, i) + o->score_weight * expected;
            texel_data_set_target(data, i, target);
        }
        k = kfit;
        if (rc == 0 && o->log)
            fprintf(o->log, "targets: %.2f x result + %.2f x expected score of the search score (K %.4f)\n",
                    1 - o->score_weight, o->score_weight, kfit);
    }
    free(lc.scores);
    lc.scores = NULL;
    if (rc == 0 && (o->dedupe || o->per_game > 0 || (o->share > 0 && o->share < 1))) {
        const size_t before = split.train_len;
        rc = shape_training(o, data, &split, lc.keys, lc.pkeys, lc.plies, r, err);
        if (rc == 0 && o->log)
            fprintf(o->log, "training set: %zu -> %zu positions (%lld merged as duplicates, %lld sampled out)\n",
                    before, split.train_len, (long long)r->merged, (long long)r->sampled_out);
        if (rc == 0 && split.train_len == 0) {
            snprintf(err, ERR_MAX, "no training positions left after --dedupe/--per-game/--share");
            rc = -1;
        }
        if (rc != 0) snprintf(terr, TEXEL_ERR_MAX, "%.200s", err);
    }
    free(lc.keys);
    free(lc.pkeys);
    free(lc.plies);
    lc.keys = NULL;
    lc.pkeys = NULL;
    lc.plies = NULL;
    TexelConfig cfg;
    texel_config_default(&cfg);
    cfg.k = k;
    cfg.epochs = o->epochs;
    cfg.lr = o->lr;
    cfg.lambda = o->lambda;
    cfg.batch_size = o->batch;
    cfg.patience = o->patience;
    cfg.threads = o->threads;
    cfg.seed = o->seed;
    cfg.anchor = TEXEL_L2_START;
    cfg.reducer = o->reducer;
    /* the pattern tables take their own step and L2 */
    for (int ti = 0; ti < g->terms_len; ti++)
        if (eval_term_is_table(g, &g->terms[ti])) memset(table + g->terms[ti].offset, 1, (size_t)g->terms[ti].count);
    cfg.table = table;
    cfg.table_lr = o->pattern_lr;
    cfg.table_lambda = o->pattern_lambda;

    /* The run, the base weight set and the tuning run row come first, so
     * every epoch's losses can be stored as they come. */
    int64_t base_id = 0, result_id = 0;
    DbTuning t = {.game = g->name, .k = 0.0 / 0.0, .train_loss = 0.0 / 0.0, .valid_loss = 0.0 / 0.0,
                  .positions_train = (int64_t)split.train_len, .positions_valid = (int64_t)split.valid_len,
                  .data = filter};
    if (rc != 0) snprintf(err, ERR_MAX, "%.200s", terr);
    if (rc == 0 && writer) rc = db_begin(o->db, err);
    if (rc == 0 && writer) {
        rc = weights_store_base(o->db, g, o->start_spec ? o->start_spec : "default", o->start, names, run_id,
                                &base_id, err);
        t.run_id = run_id;
        t.base_ws = base_id;
        if (rc == 0 && tuning_id) rc = db_tuning_restart(o->db, tuning_id, &t, err);
        else if (rc == 0) rc = db_tuning_insert(o->db, &t, &tuning_id, err);
        if (rc == 0) rc = db_commit(o->db, err);
        else db_rollback(o->db);
    }
    r->run_id = run_id;
    r->base_ws = base_id;
    r->tuning_id = tuning_id;
    if (o->reducer && tune_job_any_rank_failed(o->reducer, rc != 0) && rc == 0) {
        snprintf(err, ERR_MAX, "rank 0 could not store the tuning run (its message says why)");
        rc = -1;
    }
    if (rc != 0) {
        char derr[ERR_MAX];
        if (run_id) db_run_drop(o->db, run_id, derr); /* interrupted instead when rows refer to it */
        texel_split_free(&split);
        texel_data_free(data);
        free((void *)names);
        free(frozen);
        free(table);
        return TUNE_JOB_FAILED;
    }
    EpochCtx ec = {.db = writer ? o->db : NULL, .tuning_id = tuning_id, .verbose = o->verbose, .log = o->log, .stop = o->stop,
                   .stopped = -1, .last_printed = -1, .last = {.epoch = -1}};
    cfg.progress = on_epoch;
    cfg.progress_ctx = &ec;
    /* The game's scale weight (a man, a shatra = 100) fixes the scale of
     * the evaluation and stays frozen. */
    frozen[g->scale_weight] = 1;
    for (int ti = 0; !o->patterns && ti < g->terms_len; ti++)
        if (eval_term_is_table(g, &g->terms[ti])) memset(frozen + g->terms[ti].offset, 1, (size_t)g->terms[ti].count);
    TexelResult *res = &r->texel;
    /* Over several ranks with full batches, each rank holds only the
     * positions of its blocks from here on (mini-batches draw positions
     * from the whole set: every rank keeps all). */
    const TexelReducer *red = o->reducer;
    const size_t all_positions = texel_data_len(data);
    r->positions_held = all_positions;
    if (red && red->ranks > 1 && (cfg.batch_size == 0 || (size_t)cfg.batch_size >= split.train_len)) {
        size_t kept = 0;
        rc = tune_job_keep_own_blocks(red, g, &data, &split, &kept, terr);
        if (rc == 0) r->positions_held = kept;
        /* collective: every rank's status and count, to every rank */
        double mine2[2] = {rc != 0 ? 1.0 : 0.0, (double)kept}, *all2 = NULL;
        size_t all2_len = 0;
        char gerr[TEXEL_ERR_MAX] = "";
        bool others_failed = red->gather(red->ctx, mine2, 2, &all2, &all2_len, gerr) != 0 ||
                             all2_len != 2 * (size_t)red->ranks;
        for (size_t q = 0; !others_failed && q < all2_len; q += 2) others_failed = all2[q] != 0;
        if (others_failed && rc == 0) {
            snprintf(terr, TEXEL_ERR_MAX, "another rank could not shard the positions (out of memory)%s%.150s",
                     gerr[0] ? ": " : "", gerr);
            rc = -1;
        }
        if (rc == 0 && o->log && writer) {
            fprintf(o->log, "sharded: the ranks hold");
            for (int q = 0; q < red->ranks; q++) fprintf(o->log, "%s%.0f", q ? "/" : " ", all2[2 * q + 1]);
            fprintf(o->log, " of the %zu positions (their blocks of the full batch)\n", all_positions);
        }
        free(all2);
        if (rc != 0) {
            snprintf(err, ERR_MAX, "%.200s", terr);
            char ferr0[ERR_MAX];
            if (writer) db_run_finish(o->db, run_id, "interrupted", ferr0);
            texel_split_free(&split);
            texel_data_free(data);
            free((void *)names);
            free(frozen);
            free(table);
            return TUNE_JOB_FAILED;
        }
    }
    t0 = clock_now_s();
    rc = texel_tune(data, &split, &cfg, o->start, frozen, tuned, res, terr);
    r->tune_seconds = clock_now_s() - t0;
    if (ec.failed) rc = -1;
    if (rc == 0 && o->log && ec.last.epoch >= 0 && ec.last.epoch != ec.last_printed) log_epoch(&ec, &ec.last);
    bool interrupted = rc == 0 && ec.stopped >= 0 && res->stop == TEXEL_STOP_CALLER;
    if (interrupted && o->log && o->discard_interrupted)
        fprintf(o->log, "tune: interrupted after epoch %d; nothing stored (tuned again from the start on resume)\n",
                ec.stopped);
    else if (interrupted && o->log)
        fprintf(o->log, "tune: interrupted after epoch %d; storing the best weights so far (epoch %d)\n", ec.stopped,
                res->best_epoch);
    char ferr[ERR_MAX];
    if (interrupted && o->discard_interrupted) {
        if (writer) db_run_finish(o->db, run_id, "interrupted", ferr);
    } else if (rc != 0) {
        snprintf(err, ERR_MAX, "%s", ec.failed ? ec.err : terr);
        if (writer) db_run_finish(o->db, run_id, "interrupted", ferr);
    } else if (o->out_path) {
        /* The weight file first: if it cannot be written nothing is stored. */
        char comment[256];
        char vl[TUNE_LOSS_TEXT_MAX];
        snprintf(comment, sizeof comment, "tuning run %lld from weight set %lld, K %.4f, valid loss %s%s",
                 (long long)tuning_id, (long long)base_id, res->k, tune_loss_text(res->valid_loss, 6, vl),
                 interrupted ? " (interrupted: best epoch so far)" : "");
        rc = weights_file_write(g, tuned, comment, o->out_path, o->out_opts, err);
        if (rc != 0) db_run_finish(o->db, run_id, "interrupted", ferr);
    }
    if (rc == 0 && writer && !(interrupted && o->discard_interrupted)) {
        char how[200], name[TUNE_JOB_NAME_MAX + 1];
        char vl[TUNE_LOSS_TEXT_MAX];
        snprintf(how, sizeof how, "tuned by tuning run %lld from weight set %lld (K %.4f, valid loss %s%s)",
                 (long long)tuning_id, (long long)base_id, res->k, tune_loss_text(res->valid_loss, 6, vl),
                 interrupted ? ", interrupted" : "");
        snprintf(name, sizeof name, "%s", o->name ? o->name : ""); /* the caller checked that it fits whole */
        if (!name[0]) snprintf(name, sizeof name, "tuned-%lld", (long long)tuning_id);
        t.result_ws = 0;
        t.k = res->k;
        t.train_loss = res->train_loss;
        t.valid_loss = res->valid_loss;
        /* No weight changed (--epochs 0, or no epoch beat the start): the
         * result is the start set itself, and no new row is stored, so the
         * tuning row names no result (a result_ws equal to base_ws would
         * read as a set tuned from itself, and give the start the
         * provenance of this run). */
        r->unchanged = memcmp(tuned, o->start, sizeof(int32_t) * (size_t)g->weights_len) == 0;
        rc = db_begin(o->db, err);
        if (rc == 0 && r->unchanged) result_id = base_id;
        else if (rc == 0) {
            /* A weight set is its content: equal weights stored before are
             * that row, with its own name (r->existed says so). */
            char hash[DB_HASH_HEX];
            int64_t before = 0;
            db_weights_hash(g->name, names, tuned, g->weights_len, hash);
            rc = db_weights_find_hash(o->db, g->name, hash, &before, err);
            if (rc == 0)
                rc = db_weights_insert(o->db, g->name, name, base_id, how, run_id, names, tuned, g->weights_len,
                                       &result_id, err);
            r->existed = rc == 0 && before != 0 && before == result_id;
            t.result_ws = result_id;
        }
        if (rc == 0) {
            if (rc == 0) rc = db_tuning_update(o->db, tuning_id, &t, err);
            if (rc == 0) rc = db_run_finish(o->db, run_id, interrupted ? "interrupted" : "done", err);
            if (rc == 0) rc = db_commit(o->db, err);
            else db_rollback(o->db);
        }
    }
    r->result_ws = rc == 0 ? result_id : 0;
    texel_split_free(&split);
    texel_data_free(data);
    free((void *)names);
    free(frozen);
    free(table);
    return rc != 0 ? TUNE_JOB_FAILED : interrupted ? TUNE_JOB_INTERRUPTED : TUNE_JOB_DONE;
}
