"""Regenerates backgammon_legal_plays.txt with GNU Backgammon (the independent program).

Run: gnubg -t -q -p tests/data/gnubg_legal_plays.py > tests/data/backgammon_legal_plays.txt
(GNU Backgammon 1.07.001, Debian package `gnubg`). For each position and roll it sets up the
board (`set board <Position ID>`, `set dice`), lists every legal play with `hint` at 0-ply
(GNU Backgammon keeps one play per distinct resulting position), and, for the positions marked
`full`, plays each one (`move`) to read the resulting Position ID with the opponent on roll.
"""
import random
import gnubg

gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("set display off")
gnubg.command("set evaluation chequerplay evaluation plies 0")

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def side(points=(), bar=0):
    """A side's 25 counts from (point, count) pairs on its own points 1..24."""
    s = [0] * 25
    for p, n in points:
        s[p - 1] = n
    s[24] = bar
    return s


START = [(6, 5), (8, 3), (13, 5), (24, 2)]


def opp(points=(), bar=0):
    """The opponent's side from (point, count) pairs numbered from the side on roll."""
    return side([(25 - p, n) for p, n in points], bar)


OPP_BACK = [(12, 5), (17, 5), (19, 5)]  # the opponent far from our home board

# (label, opponent, side on roll, rolls to list in full)
HAND = [
    ("start", side(START), side(START), [(3, 1), (6, 6), (6, 5), (2, 1)]),
    ("one on the bar, three entry points held",
     opp([(19, 3), (20, 2), (21, 2), (12, 5), (17, 3)]),
     side([(6, 5), (8, 3), (13, 5), (24, 1)], bar=1), [(2, 1), (3, 3), (6, 1), (6, 5)]),
    ("two on the bar against a five-point board",
     opp([(19, 2), (20, 2), (21, 2), (22, 2), (23, 2), (12, 3), (17, 2)]),
     side([(6, 5), (8, 3), (13, 5)], bar=2), [(6, 1), (1, 1), (2, 1)]),
    ("on the bar against a closed board",
     opp([(19, 2), (20, 2), (21, 2), (22, 2), (23, 2), (24, 2), (12, 3)]),
     side([(6, 4), (8, 3), (13, 5), (5, 2)], bar=1), [(6, 5)]),
    ("three on the bar, entry then free moves", side([(4, 2), (5, 2), (6, 5), (13, 6)]),
     side([(6, 4), (8, 3), (13, 5)], bar=3), [(3, 3), (2, 1)]),
    ("bar entry that hits", side([(3, 1), (5, 1), (6, 5), (8, 3), (13, 5)]),
     side([(6, 5), (8, 3), (13, 5), (24, 1)], bar=1), [(5, 3), (4, 4)]),
    ("bearing off, all home", opp([(12, 5), (17, 5), (19, 3), (20, 2)]),
     side([(1, 3), (2, 3), (3, 3), (4, 2), (5, 2), (6, 2)]), [(6, 5), (2, 2), (4, 1)]),
    ("bearing off with gaps: higher number from the highest point", opp(OPP_BACK),
     side([(1, 2), (3, 1), (5, 2)]), [(6, 4), (6, 6), (4, 2), (2, 1)]),
    ("bearing off must move inside when a higher checker remains", opp(OPP_BACK),
     side([(2, 2), (4, 2), (6, 1)]), [(5, 3), (5, 5)]),
    ("bearing off with contact: blots to hit", opp([(3, 1), (5, 1), (12, 6), (17, 7)]),
     side([(1, 2), (2, 3), (4, 3), (6, 4)]), [(2, 1), (4, 2)]),
    ("one checker left outside then bearing off", opp(OPP_BACK),
     side([(7, 1), (6, 2), (3, 3), (1, 2)]), [(6, 1), (1, 1), (5, 2)]),
    ("last checker, either die bears it off", opp(OPP_BACK), side([(2, 1)]), []),
    ("larger die rule: only one die can be played, the larger must be",
     opp([(3, 2), (20, 5), (19, 5), (17, 3)]),
     side([(14, 1), (1, 5), (2, 5), (4, 4)]), [(6, 5)]),
    ("larger die rule: the larger is blocked, the smaller must be played",
     opp([(3, 2), (8, 2), (19, 5), (20, 6)]),
     side([(14, 1), (1, 5), (2, 5), (4, 4)]), [(6, 5)]),
    ("either die alone, not both: the larger must be played",
     opp([(3, 2), (19, 5), (20, 5), (21, 3)]), side([(11, 1), (1, 14)]), [(5, 3)]),
    ("doubles that cannot all be played", opp([(12, 2), (13, 2), (1, 11)]),
     side([(24, 2), (6, 13)]), [(6, 6), (5, 5)]),
    ("doubles against a prime", opp([(9, 2), (10, 2), (11, 2), (12, 2), (13, 2), (14, 2), (19, 3)]),
     side([(24, 2), (22, 1), (6, 12)]), [(4, 4), (3, 3), (2, 2)]),
    ("hits on the way: intermediate blots", opp([(7, 1), (9, 1), (11, 1), (19, 5), (17, 5), (20, 2)]),
     side([(13, 3), (6, 5), (8, 5), (24, 2)]), [(6, 2), (2, 2), (4, 4), (4, 2)]),
    ("prime and back game", opp([(23, 2), (22, 3), (20, 2), (18, 2), (3, 2), (1, 2), (12, 2)]),
     side([(4, 2), (5, 2), (6, 3), (7, 2), (8, 2), (9, 2), (24, 2)]), [(6, 6), (1, 1), (6, 1)]),
    ("race with a long tail", side([(1, 4), (2, 4), (3, 3), (4, 2), (5, 2)]),
     side([(12, 3), (10, 3), (7, 3), (5, 3), (3, 3)]), [(1, 1), (6, 6), (4, 3)]),
    ("no move at all: both dice blocked", side([(13, 2), (12, 2), (11, 2), (10, 2), (9, 2), (8, 2), (1, 3)]),
     side([(18, 1), (6, 14)]), [(6, 5)]),
]

for label, o, m, _ in HAND:
    assert sum(o) <= 15 and sum(m) <= 15, label
    assert not any(m[i] and o[23 - i] for i in range(24)), label


def setup(pid, d):
    gnubg.command("new game")
    gnubg.command("set board " + pid)
    gnubg.command("set dice %d%d" % d)


def plays(pid, d):
    setup(pid, d)
    assert gnubg.gnubgid().split(":")[0] == pid, "GNU Backgammon refused " + pid
    try:
        h = gnubg.hint(100000)
    except Exception:
        return []
    return [x["move"] for x in h.get("hint", [])]


def random_positions(n, seed):
    """Positions from games of random legal plays (dice by GNU Backgammon)."""
    rnd = random.Random(seed)
    out = []
    while len(out) < n:
        gnubg.command("new game")
        for ply in range(rnd.randint(4, 60)):
            ms = gnubg.match()  # make sure a game is on
            if not gnubg.board():
                break
            gnubg.command("roll")
            try:
                h = gnubg.hint(100000).get("hint", [])
            except Exception:
                h = []
            if h:
                gnubg.command("move " + rnd.choice(h)["move"])
            pid = gnubg.positionid(gnubg.board())
            opp, me = gnubg.board()
            if sum(opp) == 0 or sum(me) == 0:
                break
        else:
            out.append(gnubg.positionid(gnubg.board()))
    return out


print("# Legal plays of backgammon positions, counted by GNU Backgammon 1.07.001 (20230103,")
print("# Debian package gnubg), with tests/data/gnubg_legal_plays.py: `set board <Position ID>`,")
print("# `set dice`, then `hint` at 0-ply, which lists one play per distinct resulting position.")
print("# count <Position ID of the side on roll> <dice> <number of legal plays>  # label")
print("# play <Position ID> <dice> <GNU Backgammon notation> => <Position ID after, opponent on roll>")
for label, opp, me, full in HAND:
    pid = gnubg.positionid((opp, me))
    for d in ROLLS:
        ps = plays(pid, d)
        print("count %s %d%d %d  # %s" % (pid, d[0], d[1], len(ps), label))
    for d in full:
        for m in plays(pid, d):
            setup(pid, d)
            gnubg.command("move " + m)
            after = gnubg.gnubgid().split(":")[0]
            print("play %s %d%d %s => %s" % (pid, d[0], d[1], m, after))
for i, pid in enumerate(random_positions(20, 5)):
    for d in ROLLS:
        print("count %s %d%d %d  # random game position %d" % (pid, d[0], d[1], len(plays(pid, d)), i + 1))
