/* fuzz_pdn.c — the PDN reader: the tokenizer (pdn_read_token) over the
 * whole input, then the game reader (pdn_read_game) and the replay of
 * each game (pdn_replay_game; the GameType tag picks the game, Russian
 * otherwise). Contract checked: every failure has a message. */
#include "fuzz_common.h"

#include "pdn/pdn.h"

static const Game *russian;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    game_init_all();
    russian = game_find("russian");
    if (!russian) abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0; /* fmemopen needs at least one byte */
    FILE *in = fmemopen((void *)data, size, "rb");
    if (!in) abort();
    char err[ERR_MAX] = "";
    PdnReader *r = pdn_reader_new(in, "fuzz.pdn");
    if (!r) abort();
    PdnToken tok;
    int rc;
    while ((rc = pdn_read_token(r, &tok, err)) == 1) {
        if (!tok.text || !tok.value) fuzz_fail("token without text or value");
    }
    if (rc < 0) fuzz_check_err("pdn_read_token", err);
    pdn_reader_free(r);

    rewind(in);
    r = pdn_reader_new(in, "fuzz.pdn");
    if (!r) abort();
    PdnGame g;
    pdn_game_init(&g);
    static PdnReplay rep;
    err[0] = '\0';
    for (int games = 0; games < 64 && (rc = pdn_read_game(r, &g, err)) == 1; games++) {
        if (pdn_replay_game(&g, russian, &rep) != 0 && !rep.error[0]) fuzz_fail("replay failed without a message");
        err[0] = '\0';
    }
    if (rc < 0) fuzz_check_err("pdn_read_game", err);
    pdn_game_free(&g);
    pdn_reader_free(r);
    fclose(in);
    return 0;
}
