/* play.c — libdama-engine from C: the engine plays a whole game against
 * itself through the public API and prints it as PDN.
 *
 * Build against an installed library:
 *     cc -std=c11 play.c $(pkg-config --cflags --libs dama-engine) -o play
 * Run: ./play [GAME [NODES [LEVEL [WEIGHTS.json]]]]
 *      (russian, 20000 nodes per move, level max, compiled-in weights;
 *      WEIGHTS.json from `dama export --format json`) */
#include <dama/engine.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "russian";
    long nodes = 20000;
    if (argc > 2) { /* the whole argument a number of nodes, at least 1 */
        char *end;
        nodes = strtol(argv[2], &end, 10);
        if (end == argv[2] || *end || nodes < 1) {
            fprintf(stderr, "play: NODES '%s' is not a number of nodes (1 or more)\n", argv[2]);
            return 2;
        }
    }
    const char *level = argc > 3 ? argv[3] : "max";
    const char *weights = argc > 4 ? argv[4] : NULL;
    char err[DAMA_ERROR_MAX];
    DamaGame *game = NULL;
    if (dama_game_new(name, NULL, &game, err) != DAMA_OK) {
        fprintf(stderr, "play: %s\n", err);
        return 1;
    }
    if (dama_set_limit(game, DAMA_LIMIT_NODES, nodes) != DAMA_OK || dama_set_level_name(game, level) != DAMA_OK) {
        fprintf(stderr, "play: %s\n", dama_last_error(game));
        dama_game_free(game);
        return 2;
    }
    if (weights && dama_weights_load_json(game, weights) != DAMA_OK) {
        fprintf(stderr, "play: %s\n", dama_last_error(game));
        dama_game_free(game);
        return 1;
    }
    const char *reason = NULL;
    int plies = 0;
    while (dama_result(game, &reason) == DAMA_ONGOING && plies < 400) {
        char move[DAMA_MOVE_TEXT_MAX];
        if (dama_play(game, move, sizeof move) != DAMA_OK) {
            fprintf(stderr, "play: %s\n", dama_last_error(game));
            dama_game_free(game);
            return 1;
        }
        plies++;
    }
    size_t len = 0;
    dama_pdn(game, "dama-engine (C)", "dama-engine (C)", NULL, 0, &len);
    char *pdn = malloc(len + 1);
    int rc = pdn ? dama_pdn(game, "dama-engine (C)", "dama-engine (C)", pdn, len + 1, NULL) : DAMA_E_MEMORY;
    if (rc == DAMA_OK) printf("%s", pdn);
    else fprintf(stderr, "play: %s\n", pdn ? dama_last_error(game) : "out of memory");
    printf("; %s, %d plies, result reason %s, weights %s, library %s\n", dama_game_title(game), dama_ply_count(game),
           reason ? reason : "(move cap)", dama_weights_hash(game), dama_version());
    free(pdn);
    dama_game_free(game);
    return rc == DAMA_OK ? 0 : 1;
}
