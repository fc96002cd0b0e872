"""family_rules.py -- the rules of the draughts family for the independent
reference tests/ref/family_ref.py: six 8x8 variants (brazilian, pool, english,
czech, italian, spanish), international draughts (10x10) and canadian
draughts (12x12).

Written from the rule books docs/rules/<game>.md (the project's copies of the
normative rule books) alone, deliberately simple and slow, and sharing
nothing with the C generator (no bitboards, no shared tables): a mailbox
board 14 cells wide with off-board cells round the 8x8, 10x10 or 12x12
board, each book's own square numbering mapped onto it square by square, a
recursive capture search that keeps the captured pieces on the board until
the move ends, and the D convention for duplicates.

Rules (book clause numbers; "brazilian" takes international.md 4-13,
international is brazilian on 10x10, canadian international on 12x12):
  board      brazilian, pool, english: dark square in each player's near-left
             corner, 1 = b8 .. 32 = g1 (row by row from Black's side, left to
             right); international the same on 10x10, 1 = b10 .. 5 = j10 ..
             46 = a1 .. 50 = i1, White on 31-50; canadian the same on 12x12
             (canadian.md 1-3), 1 = b12 .. 6 = l12, 7 = a11 .. 67 = a1 ..
             72 = k1, White on 43-72; italian: dark square in the
             near-right corner, 1 = a8 .. 32 = h1; spanish: the italian
             board numbered from White's side, right to left, 1 = h1 ..
             32 = a8; czech: algebraic a1..h8 as in Russian draughts. In
             every game White's men go up the board (towards rank 8, 10 or
             12) and White moves first (pool and english: Black).
  men        step one square diagonally forward; capture forward and backward
             in brazilian, international, canadian and pool, forward only in
             the other four; an italian man never captures a king.
  kings      flying (any distance) in brazilian, international, canadian,
             pool, czech, spanish; short (one square, jump over an adjacent
             piece) in english, italian.
  capture    compulsory; goes on while it can; captured pieces stay on the
             board, block, and are never jumped twice (Turkish strike); a
             king with several landing squares must take one from which it
             can go on, when there is one (pool 9, czech 8; for the majority
             games brazilian, international, canadian and spanish the
             majority rule implies it, and it is not applied separately
             here).
  promotion  only when the move ends on the last row: a man crossing it
             mid-capture goes on as a man (brazilian, international,
             canadian, pool); in the other four a forward-only man on the
             last row cannot go on, so the move ends there.
  choice     pool, english: free; brazilian, international, canadian: most
             pieces (a king counts one); czech: a capture by a king when a
             king can capture, else free; spanish: most pieces, then most
             kings; italian: most pieces, then with a king, then most kings,
             then the king/man pattern in jump order compared
             lexicographically (king first).
  D          routes with the same start, end, captured set and promotion are
             one move; in italian a move is legal when one of its routes
             passes the four tests, and only such routes are its routes.

Notation: czech as Russian (quiet `c3-d4`, captures with every landing square
`a1:e5:c7`); the others numeric (quiet `22-18`, capture `AxB`, written with
every landing square `AxCx..xB` when another legal move has the same start
and end, or start == end). FEN `W:W21,22,K5:B1-12` (ranges read; either
colour first).
"""

OFF, EMPTY = "#", "."
WIDTH = 14  # mailbox cells a row: files a..l in cells 1..12, cells 0 and 13 (and beyond the board) off board
CELLS = WIDTH * 14  # ranks 1..12 in rows 1..12; rows 0 and 13 (and those beyond the board) off board
NE, NW, SE, SW = WIDTH + 1, WIDTH - 1, -WIDTH + 1, -WIDTH - 1  # White goes up
DIRS = (NE, NW, SE, SW)
FORWARD = {"W": (NE, NW), "B": (SE, SW)}
FILES = "abcdefghijkl"


def cell(file, rank):
    """file 0..11 (a..l), rank 1..12 -> mailbox index."""
    return rank * WIDTH + file + 1


def alg(i):
    return FILES[file_of(i)] + str(rank_of(i))


def rank_of(i):
    return i // WIDTH


def file_of(i):
    return i % WIDTH - 1


# ------------------------------------------------------------ the six books


def numbering_near_left(size=8):
    """brazilian.md 2, pool.md 2, english.md 2, international.md 2,
    canadian.md 2: a1 dark; rows from Black's side (rank 8, 10 or 12 down to
    rank 1), left to right as White sees the board."""
    out = []
    for rank in range(size, 0, -1):
        out += [cell(f, rank) for f in range(size) if (f + rank - 1) % 2 == 0]
    return out  # out[n - 1] is square n


def numbering_italian():
    """italian.md 1-2: a1 light (dark squares b1, d1, .., a2, ..); rows from
    Black's side, left to right as White sees it."""
    out = []
    for rank in range(8, 0, -1):
        out += [cell(f, rank) for f in range(8) if (f + rank - 1) % 2 == 1]
    return out


def numbering_spanish():
    """spanish.md 1-2: the italian board; rows from White's side (rank 1
    up), right to left."""
    out = []
    for rank in range(1, 9):
        out += [cell(f, rank) for f in range(7, -1, -1) if (f + rank - 1) % 2 == 1]
    return out


class Game:
    def __init__(self, name, order, start, men_back, flying, land_rule, choice, man_takes_king, anchors,
                 size=8):
        self.name = name
        self.size = size  # 8x8, 10x10 or 12x12
        self.crown = {"W": size, "B": 1}  # the rank where a man of each colour is crowned
        self.men = (size // 2) * (size // 2 - 1)  # each side's men at the start: 12, 20 or 30
        self.numeric = order is not None
        if order is None:  # czech: algebraic, the Russian board
            self.playing = [cell(f, r) for r in range(1, 9) for f in range(8) if (f + r - 1) % 2 == 0]
            self.sq_name = {i: alg(i) for i in self.playing}
        else:
            self.playing = order
            self.sq_name = {i: str(n + 1) for n, i in enumerate(order)}
        self.sq_index = {v: k for k, v in self.sq_name.items()}
        self.start = start
        self.men_back = men_back  # men capture backward too
        self.flying = flying  # flying kings (else short kings)
        self.land_rule = land_rule  # a flying king lands where it can go on
        self.choice = choice  # free | majority | king-first | quantity-quality | italian
        self.man_takes_king = man_takes_king
        self.anchors = anchors  # the book's "square = algebraic" statements
        self.cap_sep = "x" if self.numeric else ":"

    def name_of(self, i):
        return self.sq_name[i]

    def index(self, text):
        if text not in self.sq_index:
            raise ValueError("%s: no square %r" % (self.name, text))
        return self.sq_index[text]

    def key_text(self, i):
        """sort key of a square, by its name (numbers numerically)."""
        n = self.sq_name[i]
        return (int(n), "") if self.numeric else (rank_of(i), n)


RUSSIAN_START = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
NEAR_LEFT_ANCHORS = {"1": "b8", "4": "h8", "5": "a7", "29": "a1", "32": "g1"}

GAMES = {
    "brazilian": Game("brazilian", numbering_near_left(), "W:W21-32:B1-12", men_back=True, flying=True,
                      land_rule=False, choice="majority", man_takes_king=True,
                      anchors=dict(NEAR_LEFT_ANCHORS, **{"25": "b2", "22": "c3", "18": "d4", "15": "e5",
                                                         "11": "f6", "8": "g7"})),
    "pool": Game("pool", numbering_near_left(), "B:W21-32:B1-12", men_back=True, flying=True,
                 land_rule=True, choice="free", man_takes_king=True, anchors=NEAR_LEFT_ANCHORS),
    "english": Game("english", numbering_near_left(), "B:W21-32:B1-12", men_back=False, flying=False,
                    land_rule=False, choice="free", man_takes_king=True, anchors=NEAR_LEFT_ANCHORS),
    "czech": Game("czech", None, RUSSIAN_START, men_back=False, flying=True, land_rule=True,
                  choice="king-first", man_takes_king=True, anchors={}),
    "italian": Game("italian", numbering_italian(), "W:W21-32:B1-12", men_back=False, flying=False,
                    land_rule=False, choice="italian", man_takes_king=False,
                    anchors={"1": "a8", "4": "g8", "5": "b7", "29": "b1", "32": "h1"}),
    "spanish": Game("spanish", numbering_spanish(), "W:W1-12:B21-32", men_back=False, flying=True,
                    land_rule=False, choice="quantity-quality", man_takes_king=True,
                    anchors={"1": "h1", "4": "b1", "5": "g2", "8": "a2", "9": "h3", "29": "g8", "32": "a8",
                             "10": "f3", "14": "e4", "19": "d5", "23": "c6", "28": "b7"}),
    "international": Game("international", numbering_near_left(10), "W:W31-50:B1-20", men_back=True,
                          flying=True, land_rule=False, choice="majority", man_takes_king=True, size=10,
                          anchors={"1": "b10", "5": "j10", "46": "a1", "50": "i1", "31": "b4", "35": "j4",
                                   "41": "b2", "37": "c3", "32": "d4", "28": "e5", "23": "f6", "19": "g7",
                                   "14": "h8", "10": "i9"}),
    "canadian": Game("canadian", numbering_near_left(12), "W:W43-72:B1-30", men_back=True, flying=True,
                     land_rule=False, choice="majority", man_takes_king=True, size=12,
                     anchors={"1": "b12", "6": "l12", "7": "a11", "67": "a1", "72": "k1", "61": "b2",
                              "56": "c3", "50": "d4", "45": "e5", "39": "f6", "34": "g7", "28": "h8",
                              "23": "i9", "17": "j10", "12": "k11"}),
}


# ------------------------------------------------------------ positions


class Pos:
    """board: CELLS cells ('#' off board or a light square, '.' empty,
    'w'/'b' men, 'W'/'B' kings); side 'W' or 'B'."""

    def __init__(self, game, board, side):
        self.game = game
        self.board = board
        self.side = side

    def fen(self):
        g = self.game
        parts = [self.side]
        for colour in "WB":
            sqs = sorted((i for i in g.playing if self.board[i].upper() == colour), key=g.key_text)
            parts.append(colour + ",".join(("K" if self.board[i].isupper() else "") + g.name_of(i) for i in sqs))
        return ":".join(parts)


def empty_board(game):
    b = [OFF] * CELLS
    for i in game.playing:
        b[i] = EMPTY
    return b


def parse_fen(game, text):
    text = text.strip().rstrip(".")
    fields = text.split(":")
    if fields[0] not in ("W", "B"):
        raise ValueError("side to move must be W or B: %r" % text)
    b = empty_board(game)
    for field in fields[1:]:
        if not field or field[0] not in "WB":
            raise ValueError("bad colour field %r in %r" % (field, text))
        colour = field[0]
        for tok in filter(None, field[1:].split(",")):
            king = tok[0] == "K"
            body = tok[1:] if king else tok
            if game.numeric and "-" in body:
                lo, _, hi = body.partition("-")
                if not (lo.isdigit() and hi.isdigit()) or int(lo) > int(hi):
                    raise ValueError("bad range %r in %r" % (tok, text))
                names = [str(n) for n in range(int(lo), int(hi) + 1)]
            else:
                names = [body]
            for nm in names:
                sq = game.index(nm)
                if b[sq] != EMPTY:
                    raise ValueError("square %s given twice in %r" % (nm, text))
                if not king and rank_of(sq) == game.crown[colour]:
                    raise ValueError("a man on its crowning row: %s in %r" % (tok, text))
                b[sq] = colour if king else colour.lower()
    return Pos(game, b, fields[0])


def enemy(p, side):
    return p not in (OFF, EMPTY) and p.upper() != side


def own(p, side):
    return p not in (OFF, EMPTY) and p.upper() == side


# ------------------------------------------------------------ move generation


def jumps(game, b, side, sq, king, captured):
    """Every single jump from sq: list of (victim, [landing squares]).
    b has the moving piece lifted off its start square; captured pieces still
    stand on b, block, and cannot be jumped again."""
    out = []
    dirs = DIRS if (king or game.men_back) else FORWARD[side]
    for d in dirs:
        v = sq + d
        if king and game.flying:
            while b[v] == EMPTY:
                v += d
        if not enemy(b[v], side) or v in captured:
            continue
        if not king and not game.man_takes_king and b[v].isupper():
            continue  # italian.md 7: a man never captures a king
        lands = []
        land = v + d
        while b[land] == EMPTY:
            lands.append(land)
            if not (king and game.flying):
                break
            land += d
        if lands:
            out.append((v, lands))
    return out


def capture_routes(pos):
    """Every complete capture route of the side to move, before the choice
    rules: list of (start, path of squares from start, captured in jump order)."""
    game, side = pos.game, pos.side
    routes = []

    def search(b, start, sq, king, captured, path):
        js = jumps(game, b, side, sq, king, captured)
        if not js:
            if captured:
                routes.append((start, tuple(path), tuple(captured)))
            return
        for v, lands in js:
            taken = captured + [v]
            if king and game.flying and game.land_rule:
                goon = [l for l in lands if jumps(game, b, side, l, True, taken)]
                lands = goon or lands
            for l in lands:
                # promotion only at the end of the move: a man stays a man
                search(b, start, l, king, taken, path + [l])

    for s in game.playing:
        p = pos.board[s]
        if own(p, side):
            b = list(pos.board)
            b[s] = EMPTY  # the piece leaves its square (it may come back)
            search(b, s, s, p.isupper(), [], [s])
    return routes


def choose(pos, routes):
    """The routes the game's capture-choice rule leaves."""
    b, choice = pos.board, pos.game.choice
    if not routes or choice == "free":
        return routes
    if choice == "king-first":  # czech.md 10
        by_king = [r for r in routes if b[r[0]].isupper()]
        return by_king or routes

    def merit(r):
        n = len(r[2])
        kings = sum(b[v].isupper() for v in r[2])
        if choice == "majority":  # brazilian (international.md 11)
            return (n,)
        if choice == "quantity-quality":  # spanish.md 10
            return (n, kings)
        pattern = tuple(int(b[v].isupper()) for v in r[2])  # italian.md 10
        return (n, int(b[r[0]].isupper()), kings, pattern)

    best = max(merit(r) for r in routes)
    return [r for r in routes if merit(r) == best]


def move_key(pos, start, end, captured):
    promo = pos.board[start].islower() and rank_of(end) == pos.game.crown[pos.side]
    return (start, end, frozenset(captured), promo)


def quiet_moves(pos):
    game, side = pos.game, pos.side
    moves = {}
    for s in game.playing:
        p = pos.board[s]
        if not own(p, side):
            continue
        for d in (DIRS if p.isupper() else FORWARD[side]):
            t = s + d
            while pos.board[t] == EMPTY:
                moves[move_key(pos, s, t, ())] = [(s, t)]
                if not (p.isupper() and game.flying):
                    break
                t += d
    return moves


def legal_moves(pos):
    """D convention: {(start, end, captured frozenset, promotion): [routes]}."""
    routes = choose(pos, capture_routes(pos))
    if not routes:
        return quiet_moves(pos)
    moves = {}
    for start, path, captured in routes:
        moves.setdefault(move_key(pos, start, path[-1], captured), []).append(path)
    for k in moves:
        moves[k].sort(key=lambda path: [pos.game.key_text(s) for s in path])
    return moves


def full_text(game, key, path):
    return (game.cap_sep if key[2] else "-").join(game.name_of(s) for s in path)


def accepted_texts(pos, moves):
    """{text: key}: how each move may be written. czech: every full route;
    numeric games: `A-B`, or `AxB` unless another legal move has the same
    start and end or start == end, when each full route."""
    game = pos.game
    ends = {}
    for k in moves:
        ends[(k[0], k[1])] = ends.get((k[0], k[1]), 0) + 1
    out = {}
    for k, routes in moves.items():
        if not k[2] or not game.numeric or ends[(k[0], k[1])] > 1 or k[0] == k[1]:
            for r in routes:
                out[full_text(game, k, r)] = k
        else:
            out[game.name_of(k[0]) + "x" + game.name_of(k[1])] = k
    return out


def writer_text(pos, moves, key):
    """The text the book's writer gives a move (first route when full)."""
    texts = sorted((t for t, k in accepted_texts(pos, moves).items() if k == key), key=len)
    return min(t for t in texts if len(t) == len(texts[0]))


def make(pos, key):
    start, end, captured, promo = key
    b = list(pos.board)
    piece = b[start]
    b[start] = EMPTY
    for c in captured:
        b[c] = EMPTY
    b[end] = piece.upper() if promo else piece
    return Pos(pos.game, b, "B" if pos.side == "W" else "W")


def perft(pos, depth, paths=False):
    if depth == 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return sum(len(r) for r in moves.values()) if paths else len(moves)
    return sum(perft(make(pos, k), depth - 1, paths) * (len(r) if paths else 1) for k, r in moves.items())


def describe(game, fen):
    pos = parse_fen(game, fen)
    moves = legal_moves(pos)
    lines = []
    for key, routes in sorted(moves.items(), key=lambda kv: writer_text(pos, moves, kv[0])):
        caps = ",".join(sorted((game.name_of(c) for c in key[2]), key=lambda n: game.key_text(game.index(n))))
        routes_text = " | ".join(full_text(game, key, r) for r in routes)
        lines.append("%s\t%s\t%s%s" % (writer_text(pos, moves, key), routes_text, caps,
                                       "\tpromotes" if key[3] else ""))
    return lines

