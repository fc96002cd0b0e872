/* pdn_stored.c — replaying a game as dama stores it (pdn.h). */
#include "pdn/pdn.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "engine/game_record.h"

static int replay(const Game *game, const char *start_fen, const char *movetext, int max_plies,
                  struct GameRecord *rec, char err[ERR_MAX])
{
    char perr[ERR_MAX];
    if (game_record_init(rec, game, start_fen, perr) != 0) {
        snprintf(err, ERR_MAX, "start position: %.230s", perr);
        return -1;
    }
    const char *text = movetext ? movetext : "";
    if (!*text) return 0;
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    PdnReader *r = in ? pdn_reader_new(in, "movetext") : NULL;
    int rc = 0;
    if (!r) {
        snprintf(err, ERR_MAX, "out of memory");
        rc = -1;
    }
    PdnToken tok;
    while (rc == 0 && (max_plies <= 0 || rec->len < max_plies)) {
        int got = pdn_read_token(r, &tok, perr);
        if (got < 0) {
            snprintf(err, ERR_MAX, "%.250s", perr);
            rc = -1;
        }
        if (got <= 0) break;
        if (tok.kind == PDN_TOKEN_RESULT) { /* the end: nothing may follow it */
            char result[16];
            snprintf(result, sizeof result, "%s", tok.text);
            got = pdn_read_token(r, &tok, perr);
            if (got < 0) snprintf(err, ERR_MAX, "%.250s", perr);
            else if (got > 0)
                snprintf(err, ERR_MAX, "'%.40s' after the result '%s' (line %ld)", tok.text[0] ? tok.text : "?",
                         result, tok.line);
            rc = got != 0 ? -1 : 0;
            break;
        }
        if (tok.kind != PDN_TOKEN_MOVE) continue;
        if (game_record_apply_text(rec, tok.text, perr) != 0) {
            snprintf(err, ERR_MAX, "ply %d: %.230s", rec->len + 1, perr);
            rc = -1;
        }
    }
    pdn_reader_free(r);
    if (in) fclose(in);
    return rc;
}

int pdn_stored_replay(const Game *game, const char *start_fen, const char *movetext, int plies, int max_plies,
                      struct GameRecord *rec, char err[ERR_MAX])
{
    if (replay(game, start_fen, movetext, max_plies, rec, err) != 0) return -1;
    if (plies < 0) return 0;
    /* read to max_plies: the row must hold at least as many; read whole: exactly its moves */
    bool capped = max_plies > 0 && rec->len >= max_plies;
    if (capped ? plies < rec->len : rec->len != plies) {
        snprintf(err, ERR_MAX, "its movetext holds %s%d plies, the row says %d", capped ? "at least " : "", rec->len,
                 plies);
        return -1;
    }
    return 0;
}
