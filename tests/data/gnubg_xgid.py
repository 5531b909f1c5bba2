"""Regenerates gnubg_xgid.txt: GNU Backgammon reads each XGID (`set xgid`) and prints its
`PositionID:MatchID` (`gnubgid`). No XGID here has a pending double ("D"): GNU Backgammon's
`set xgid` does not keep that state (its Match ID then shows no double).

Run: gnubg -t -q -p tests/data/gnubg_xgid.py | grep -E '^(#|XGID=)' > tests/data/gnubg_xgid.txt
"""
import gnubg

X = [
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:0:0:3:0:10",
    "XGID=-b----E-C---eE---c-e----B-:2:1:-1:00:0:0:1:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:2:0:10",
    "XGID=aBBBB-B-B---cC---cbcb-----:0:0:1:61:4:6:1:7:10",
    "XGID=-BBBBB-----aB----abbbcbb-B:2:-1:1:44:2:3:0:7:10",
    "XGID=b-BCBCB-----------bcbbc-A-:3:1:-1:21:12:9:0:15:10",
    "XGID=--BDCBB----------bbcbbd---:0:0:-1:66:0:0:0:1:10",
    "XGID=-ABCDE--------------abcde-:4:1:1:00:5:5:0:11:10",
    "XGID=----------------------c-C-:0:0:1:31:0:0:0:0:10",
]
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
print("# XGID => PositionID:MatchID as GNU Backgammon 1.07.001 (20230103, Debian package gnubg)")
print("# reads it with `set xgid`, printed by `gnubgid` (tests/data/gnubg_xgid.py).")
for x in X:
    gnubg.command("new game")
    gnubg.command("set xgid " + x)
    print(x + " => " + gnubg.gnubgid())
