// play.cpp — libdama-engine from C++17: two engines of different levels
// play a whole game through the public API; the game is printed as PDN.
//
// Build against an installed library:
//     c++ -std=c++17 play.cpp $(pkg-config --cflags --libs dama-engine) -o play_cpp
// Run: ./play_cpp [GAME [NODES]]   (turkish, 20000 nodes per move)
#include <dama/engine.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>

namespace {

// A game owned by a unique_ptr: freed on every path.
struct GameFree {
    void operator()(DamaGame *g) const { dama_game_free(g); }
};
using GamePtr = std::unique_ptr<DamaGame, GameFree>;

void check(DamaGame *g, int status)
{
    if (status != DAMA_OK) throw std::runtime_error(std::string(dama_status_text(status)) + ": " + dama_last_error(g));
}

GamePtr new_game(const std::string &name)
{
    char err[DAMA_ERROR_MAX];
    DamaGame *g = nullptr;
    if (dama_game_new(name.c_str(), nullptr, &g, err) != DAMA_OK) throw std::runtime_error(err);
    return GamePtr(g);
}

} // namespace

int main(int argc, char **argv)
{
    try {
        const std::string name = argc > 1 ? argv[1] : "turkish";
        long nodes = 20000;
        if (argc > 2) { // the whole argument a number of nodes, at least 1
            char *end;
            nodes = std::strtol(argv[2], &end, 10);
            if (end == argv[2] || *end || nodes < 1) {
                std::fprintf(stderr, "play_cpp: NODES '%s' is not a number of nodes (1 or more)\n", argv[2]);
                return 2;
            }
        }
        // The referee keeps the game; each player searches its own copy of
        // the position (one engine per side, as two apps would).
        GamePtr referee = new_game(name);
        GamePtr players[2] = {new_game(name), new_game(name)};
        check(players[0].get(), dama_set_level(players[0].get(), DAMA_LEVEL_MAX));
        check(players[1].get(), dama_set_level_name(players[1].get(), "club"));
        for (auto &p : players) check(p.get(), dama_set_limit(p.get(), DAMA_LIMIT_NODES, nodes));
        const char *reason = nullptr;
        while (dama_result(referee.get(), &reason) == DAMA_ONGOING && dama_ply_count(referee.get()) < 400) {
            DamaGame *p = players[dama_side_to_move(referee.get())].get();
            char move[DAMA_MOVE_TEXT_MAX];
            check(p, dama_search(p, move, sizeof move));
            check(referee.get(), dama_apply_move(referee.get(), move));
            for (auto &q : players) check(q.get(), dama_apply_move(q.get(), move));
        }
        size_t len = 0;
        dama_pdn(referee.get(), "dama-engine max", "dama-engine club", nullptr, 0, &len);
        std::string pdn(len + 1, '\0');
        check(referee.get(), dama_pdn(referee.get(), "dama-engine max", "dama-engine club", &pdn[0], pdn.size(), nullptr));
        pdn.resize(len);
        std::printf("%s; %s, %d plies, result reason %s, library %s\n", pdn.c_str(), dama_game_title(referee.get()),
                    dama_ply_count(referee.get()), reason ? reason : "(move cap)", dama_version());
        return 0;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "play_cpp: %s\n", e.what());
        return 1;
    }
}
