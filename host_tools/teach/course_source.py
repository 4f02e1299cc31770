"""The course's problems, in teaching order, as compact source: ``python -m host_tools.teach.course --write`` makes
the SGF files from them (course.py).

A diagram's rows run from the top (9) to the bottom (1), each its number then columns A to J: X black, O white,
. empty; a row left out is empty. ``target`` is one point of the chain the problem is about. ``lines`` maps each line of moves (GTP
vertices, the side to play first) to the comment of its last node, RIGHT or WRONG first: a RIGHT line ends on the
student's move, a WRONG one on the opponent's refutation. ``unchecked`` says why GNU Go's check does not apply.
"""

from typing import NamedTuple


class Source(NamedTuple):
    topic: str
    name: str
    title: str
    question: str
    board: str
    target: str
    lines: dict
    unchecked: str = ""


SOURCES = [
    # -- capture -------------------------------------------------------------------------------------------------------
    Source("capture", "one-stone", "Capture one stone",
           "Black to play: capture the white stone in one move.", """
        5 . . . X O X . . .
        4 . . . . X . . . .
        """, "E5", {
            "E6": "RIGHT: The white stone has no liberty left: it is captured.",
        }),
    Source("capture", "side", "Capture on the side",
           "Black to play: capture the white stone in one move.", """
        2 . . . . X . . . .
        1 . . . X O . . . .
        """, "E1", {
            "F1": "RIGHT: On the edge a stone has only three liberties. This one had one left.",
        }),
    Source("capture", "corner", "Capture in the corner",
           "Black to play: capture the white stone in one move.", """
        3 X . . . . . . . .
        2 O X . . . . . . .
        """, "A2", {
            "A1": "RIGHT: The last liberty was in the corner.",
        }),
    Source("capture", "two-stones", "Capture two stones",
           "Black to play: capture the two white stones in one move.", """
        4 . . . X O X . . .
        3 . . . X O X . . .
        2 . . . . X . . . .
        """, "E4", {
            "E5": "RIGHT: Stones side by side share their liberties: both are captured.",
        }),
    Source("capture", "two-on-side", "Two stones on the side",
           "Black to play: capture the two white stones in one move.", """
        2 . . . X X . . . .
        1 . . X O O . . . .
        """, "D1", {
            "F1": "RIGHT: Two stones captured.",
        }),
    Source("capture", "three-stones", "Capture three stones",
           "Black to play: capture the three white stones in one move.", """
        6 . . . X X . . . .
        5 . . X O O O X . .
        4 . . . X X X . . .
        """, "E5", {
            "F6": "RIGHT: Three stones with one liberty: you take all three.",
        }),
    Source("capture", "two-in-corner", "Two stones in the corner",
           "Black to play: capture the two white stones in one move.", """
        2 X . . . . . . . .
        1 O O X . . . . . .
        """, "A1", {
            "B2": "RIGHT: In the corner two stones have only three liberties.",
        }),
    Source("capture", "cutting-stone", "Capture the cutting stone",
           "Black to play: your stone is in atari. Capture a white stone to save it.", """
        4 . . . O . . . . .
        3 . . O X O X . . .
        2 . . . . X . . . .
        """, "E3", {
            "E4": "RIGHT: The cutting stone is captured and your stone is safe.",
            "D2 E4": "WRONG: Your stone is safe, but White connects the cutting stone. Capturing it was better.",
        }),
    # -- atari ---------------------------------------------------------------------------------------------------------
    Source("atari", "toward-your-stones", "Atari toward your stones",
           "Black to play: give atari so that the white stone runs into your stones.", """
        4 . . X O . X . . .
        3 . . . X X . . . .
        """, "D4", {
            "D5 E4 E5": "RIGHT: White ran into your stones and is captured.",
            "E4 D5": "WRONG: White runs away into the open.",
        }),
    Source("atari", "toward-the-edge", "Atari toward the edge",
           "Black to play: give atari so that the white stone runs to the edge.", """
        3 . . . . X . . . .
        2 . . . X O . . . .
        """, "E2", {
            "F2 E1 F1 D1 C1": "RIGHT: On the edge White had nowhere to go: three stones captured.",
            "F2 E1 D1 F1 G1": "RIGHT: On the edge White had nowhere to go: three stones captured.",
            "E1 F2": "WRONG: White runs away toward the centre.",
        }),
    Source("atari", "two-stones", "Atari on two stones",
           "Black to play: give atari so that the two white stones cannot escape.", """
        8 . . . . O . . . .
        5 . . . X O . X . .
        4 . . . X O X . . .
        3 . . . . X . . . .
        """, "E5", {
            "E6 F5 F6": "RIGHT: White ran into your stone: three stones captured.",
            "F5 E6": "WRONG: White runs away toward its friend.",
        }),
    Source("atari", "away-from-friends", "Atari away from friends",
           "Black to play: give atari so that the white stone cannot reach its friend.", """
        7 . . . . X . . . .
        6 . . . X . . . . .
        5 . . . X O . O . .
        4 . . . . X . . . .
        """, "E5", {
            "F5 E6 F6": "RIGHT: Cut off from its friend, White is captured.",
            "E6 F5": "WRONG: White connects to its friend and is safe.",
        }),
    Source("atari", "toward-the-side", "Atari toward the side",
           "Black to play: give atari so that the white stone runs along the edge.", """
        6 . X . . . . . . .
        5 . O X . . . . . .
        """, "B5", {
            "B4 A5 A6 A4 A3": "RIGHT: Along the edge White never gets out: three stones captured.",
            "B4 A5 A4 A6 A7": "RIGHT: Along the edge White never gets out: three stones captured.",
            "A5 B4": "WRONG: White runs away toward the centre.",
        }),
    # -- escape --------------------------------------------------------------------------------------------------------
    Source("escape", "centre", "Escape in the centre",
           "Black to play: your stone is in atari. Save it.", """
        5 . . . O X O . . .
        4 . . . . O . . . .
        """, "E5", {
            "E6": "RIGHT: Two stones with three liberties: they are out.",
        }),
    Source("escape", "from-the-edge", "Escape from the edge",
           "Black to play: your stone is in atari. Save it.", """
        2 . . . O X O . . .
        1 . . . . O . . . .
        """, "E2", {
            "E3": "RIGHT: Run away from the edge, toward the centre.",
        }),
    Source("escape", "corner", "Escape from the corner",
           "Black to play: your stone is in atari. Save it.", """
        2 O X O . . . . . .
        1 . O . . . . . . .
        """, "B2", {
            "B3": "RIGHT: Out of the corner with three liberties.",
        }),
    Source("escape", "on-the-side", "Escape from the side",
           "Black to play: your stone is in atari. Save it.", """
        6 . O . . . . . . .
        5 O X . . . . . . .
        4 . O . . . . . . .
        """, "B5", {
            "C5": "RIGHT: Out toward the centre with three liberties.",
        }),
    Source("escape", "to-a-friend", "Escape to a friend",
           "Black to play: your two stones are in atari. Save them.", """
        7 . . . . . X . . .
        6 . . . O . X . . .
        5 . . O X X O . . .
        4 . . . O O . . . .
        """, "D5", {
            "E6": "RIGHT: Connected to your friends, the stones are safe.",
        }),
    Source("escape", "by-capturing", "Escape by capturing",
           "Black to play: your stone is in atari. Running away fails: save it another way.", """
        7 . . . X . . . . .
        6 . . X O . . . . .
        5 . . O X . O . . .
        4 . . . O O . . . .
        """, "D5", {
            "E6": "RIGHT: Capturing the white stone gives yours its liberties back.",
            "E5 E6": "WRONG: Still one liberty: White captures two stones.",
        }),
    # -- ladder --------------------------------------------------------------------------------------------------------
    Source("ladder", "to-your-stone", "Ladder to your stone",
           "Black to play: capture the white stone with a ladder.", """
        5 . . . . . X X . .
        4 . . . . X O . . .
        3 . . . . . . . X .
        2 . . . . O . . . .
        """, "F4", {
            "F3 G4 H4 G3 G2": "RIGHT: Atari, atari, atari: White ran into your stone and is captured.",
            "G4 F3": "WRONG: Atari from this side lets White run to its friend.",
        }),
    Source("ladder", "long", "A long ladder",
           "Black to play: capture the white stone with a ladder.", """
        5 . . . . . X X . .
        4 . . . . X O . . .
        """, "F4", {
            "F3 G4 H4 G3 G2 H3 J3 H2 H1 J2 J1":
                "RIGHT: The ladder runs all the way to the corner: six stones captured.",
            "G4 F3": "WRONG: Atari from this side lets White out with three liberties.",
        }),
    Source("ladder", "two-stones", "Ladder on two stones",
           "Black to play: capture the two white stones with a ladder.", """
        6 . . . . . . X . .
        5 . . . . . X O X .
        4 . . . . . X O . .
        2 . . . . . O . . .
        """, "G4", {
            "G3 H4 J4 H3 H2 J3 J2": "RIGHT: The ladder takes all five stones to the edge.",
            "H4 G3": "WRONG: Atari from this side lets White run to its friend.",
        }),
    Source("ladder", "to-the-top", "Ladder to the top",
           "Black to play: capture the white stone with a ladder.", """
        8 . . . . . O . . .
        6 . . . O X . . . .
        5 . . X X . . . . .
        """, "D6", {
            "D7 C6 B6 C7 C8 B7 A7 B8 B9 A8 A9":
                "RIGHT: The ladder runs all the way to the corner: six stones captured.",
            "C6 D7": "WRONG: Atari from this side lets White run to its friend.",
        }),
    # -- net -----------------------------------------------------------------------------------------------------------
    Source("net", "ladder-breaker", "A net",
           "Black to play: the ladder does not work. Catch the white stone in a net.", """
        5 . . . . . O . . .
        4 . . X . . . O . .
        3 . . X O . . . . .
        2 . . . X X . . . .
        """, "D3", {
            "E4 D4 D5 E3 F3": "RIGHT: Caught in the net: wherever White runs, it is captured.",
            "D4 E3": "WRONG: White runs toward its friend: the ladder does not work.",
            "E3 D4": "WRONG: White runs out into the open.",
        }),
    Source("net", "two-ways-out", "A net in the centre",
           "Black to play: the ladder does not work either way. Catch the white stone in a net.", """
        8 . . . . O . . . .
        6 . . . . . X . . .
        5 . O . . O X . . .
        4 . . . X X . . . .
        """, "E5", {
            "D6 D5 C5 E6 E7": "RIGHT: Caught in the net: wherever White runs, it is captured.",
            "E6 D5": "WRONG: White runs toward its friend on the left.",
            "D5 E6": "WRONG: White runs toward its friend at the top.",
        }),
    # -- snapback ------------------------------------------------------------------------------------------------------
    Source("snapback", "on-the-edge", "Snapback on the edge",
           "Black to play: capture the white stones. You may have to give one stone first.", """
        3 . . X X X X . . .
        2 . X O O O O X . .
        1 . X O . . O X . .
        """, "C2", {
            "D1 E1 D1": "RIGHT: White took one stone and is left in atari: you take seven. That is a snapback.",
            "E1 D1 E1": "RIGHT: White took one stone and is left in atari: you take seven. That is a snapback.",
        }),
    Source("snapback", "in-the-corner", "Snapback in the corner",
           "Black to play: capture the white stones. You may have to give one stone first.", """
        3 X X X . . . . . .
        2 O O O X . . . . .
        1 . . O X . . . . .
        """, "B2", {
            "B1 A1 B1": "RIGHT: White took one stone and is left in atari: you take five. That is a snapback.",
            "A1 B1 A1": "RIGHT: White took one stone and is left in atari: you take five. That is a snapback.",
        }),
    Source("snapback", "on-the-side", "Snapback on the side",
           "Black to play: capture the white stones. You may have to give one stone first.", """
        7 X X . . . . . . .
        6 O O X . . . . . .
        5 . O X . . . . . .
        4 . O X . . . . . .
        3 O O X . . . . . .
        2 X X . . . . . . .
        """, "B4", {
            "A4 A5 A4": "RIGHT: White took one stone and is left in atari: you take seven. That is a snapback.",
            "A5 A4 A5": "RIGHT: White took one stone and is left in atari: you take seven. That is a snapback.",
        }),
    Source("snapback", "big-snapback", "A big snapback",
           "Black to play: capture the white stones. You may have to give one stone first.", """
        4 . . . X X X . . .
        3 . . X O O O X . .
        2 . . X O . O X . .
        1 . . X O . O X . .
        """, "D2", {
            "E2 E1 E2": "RIGHT: White took one stone and is left in atari: you take eight. That is a snapback.",
            "E1 E2 E1": "RIGHT: White took one stone and is left in atari: you take eight. That is a snapback.",
        }),
    # -- race ----------------------------------------------------------------------------------------------------------
    Source("race", "two-against-two", "Two liberties each",
           "Black to play: your three stones and White's three stones both have two liberties. Win the race.", """
        4 . . O O X X . . .
        3 . O O X O X X . .
        2 . O . X O . X . .
        1 . O . X O . X . .
        """, "E1", {
            "F2 C2 F1": "RIGHT: You took White's last liberty first: three stones captured.",
            "F1 C1 F2": "RIGHT: You took White's last liberty first: three stones captured.",
            "C2 C1": "WRONG: You filled your own liberty: White captures four stones.",
        }),
    Source("race", "three-against-three", "Three liberties each",
           "Black to play: your four stones and White's four stones both have three liberties. Win the race.", """
        5 . . O O X X . . .
        4 . O O X O X X . .
        3 . O . X O . X . .
        2 . O . X O . X . .
        1 . O . X O . X . .
        """, "E1", {
            "F3 C3 F2": "RIGHT: White has one liberty left and you have two: you win the race.",
            "F3 C3 F1": "RIGHT: White has one liberty left and you have two: you win the race.",
            "F2 C2 F3": "RIGHT: White has one liberty left and you have two: you win the race.",
            "F2 C2 F1": "RIGHT: White has one liberty left and you have two: you win the race.",
            "F1 C1 F3": "RIGHT: White has one liberty left and you have two: you win the race.",
            "F1 C1 F2": "RIGHT: White has one liberty left and you have two: you win the race.",
            "C3 C2": "WRONG: You filled your own liberty: now White is ahead in the race.",
        }),
    Source("race", "on-the-top", "A race at the top",
           "Black to play: your four stones and White's four stones both have three liberties. Win the race.", """
        9 . . X . O X . O .
        8 . . X . O X . O .
        7 . . X . O X . O .
        6 . . X X O X O O .
        5 . . . X X O O . .
        """, "E9", {
            "D7 G7 D8": "RIGHT: White has one liberty left and you have two: you win the race.",
            "D7 G7 D9": "RIGHT: White has one liberty left and you have two: you win the race.",
            "D8 G8 D7": "RIGHT: White has one liberty left and you have two: you win the race.",
            "D8 G8 D9": "RIGHT: White has one liberty left and you have two: you win the race.",
            "D9 G9 D7": "RIGHT: White has one liberty left and you have two: you win the race.",
            "D9 G9 D8": "RIGHT: White has one liberty left and you have two: you win the race.",
            "G7 G8": "WRONG: You filled your own liberty: now White is ahead in the race.",
        }),
    Source("race", "shared-liberty", "A shared liberty",
           "Black to play: E1 is a liberty of both sides. Take White's outside liberties first.", """
        4 . . O O X X X X .
        3 . O O X O X X X .
        2 . O . X O O . X .
        1 . O . X . O . X .
        """, "E2", {
            "G2 C2 G1": "RIGHT: White has only the shared liberty left, and it cannot fill it: you win the race.",
            "G1 C2 G2": "RIGHT: White has only the shared liberty left, and it cannot fill it: you win the race.",
            "E1 C2": "WRONG: Filling the shared liberty took one of yours too: White wins the race.",
        }),
    # -- eye -----------------------------------------------------------------------------------------------------------
    Source("eye", "real-eye", "A real eye",
           "Black to play: C1 looks like an eye. Make it a real eye, so that you have two eyes.", """
        3 O O O O O O . . .
        2 X X X . O O . . .
        1 . X . X X O . . .
        """, "B2", {
            "D2": "RIGHT: Your stones are joined, so C1 is a real eye. With A1 you have two eyes: alive.",
            "C1 D2": "WRONG: You filled your own eye, and White cuts: only one eye is left.",
        }),
    Source("eye", "make-it-false", "A false eye",
           "Black to play: White has two eyes, or does it? Make one of them false.", """
        9 . . . X O O . O .
        8 . . . X X . O O O
        7 . . . X X X X X X
        """, "H8", {
            "F8": "RIGHT: G9 is a false eye now: White must fill it to save two stones. Only one real eye: dead.",
        }),
    Source("eye", "capture-for-an-eye", "An eye by capturing",
           "Black to play: you have one eye. Make a second eye by capturing the white stone.", """
        3 O O O O O O . . .
        2 X X X X X O . . .
        1 . X . O . O . . .
        """, "B2", {
            "E1": "RIGHT: The white stone cannot escape. When it is captured, D1 is your second eye.",
            "C1 E1": "WRONG: White's stone joins its friends, and you have only one eye.",
        }),
    Source("eye", "eye-on-the-edge", "An eye on the edge",
           "Black to play: F1 is almost an eye. Make it real, so that you have two eyes.", """
        3 O O O O O O O O .
        2 X X X X X X . O .
        1 . X X X X . X O .
        """, "B2", {
            "G2": "RIGHT: G1 is joined to your group, so F1 is a real eye. With A1 you have two eyes.",
            "F1 G2": "WRONG: You filled your own eye: only A1 is left, and White can capture your whole group.",
        }),
    Source("eye", "stop-the-eye", "Stop the second eye",
           "Black to play: White has one eye. Save your stone, so that White cannot make a second eye.", """
        3 X X X X X X . . .
        2 O O O O O X . . .
        1 . O . X . X . . .
        """, "B2", {
            "E1": "RIGHT: Your stone is joined to its friends: White has no second eye.",
            "C1 E1": "WRONG: White captures two stones and gets its second eye.",
        }),
    # -- two-eyes ------------------------------------------------------------------------------------------------------
    Source("two-eyes", "close-the-eye", "Close the second eye",
           "Black to play: you have one eye in the corner. Make a second eye.", """
        3 O O O O O O . . .
        2 X X X X O . . . .
        1 . X . . O . . . .
        """, "B2", {
            "D1": "RIGHT: C1 is a real eye now. Two eyes: alive.",
            "C1 D1": "WRONG: You filled the space for your eye: White blocks and you have only one eye.",
        }),
    Source("two-eyes", "connect", "Connect for two eyes",
           "Black to play: each of your groups has only one eye. Make them one group.", """
        3 O O O O O O O . .
        2 X X X . X X X O .
        1 . X . X . X . O .
        """, "B2", {
            "D2": "RIGHT: One group with three eyes: alive.",
        }),
    Source("two-eyes", "three-in-a-row", "Three in a row",
           "Black to play: you have three empty points in a row. Make two eyes.", """
        3 . O O O O O O O .
        2 . O X X X X X O .
        1 . O X . . . X O .
        """, "C2", {
            "E1": "RIGHT: The middle point splits the space into two eyes: alive.",
            "D1 E1": "WRONG: White took the middle point: only one eye is left.",
        }),
    Source("two-eyes", "on-the-side", "Two eyes on the side",
           "Black to play: you have one eye in the corner. Make a second eye.", """
        5 O O O . . . . . .
        4 . X O . . . . . .
        3 . X O . . . . . .
        2 X X O . . . . . .
        1 . X O . . . . . .
        """, "B2", {
            "A4": "RIGHT: A3 is a real eye now. Two eyes: alive.",
            "A3 A4": "WRONG: You filled the space for your eye: White blocks and you have only one eye.",
        }),
    # -- kill ----------------------------------------------------------------------------------------------------------
    Source("kill", "three-in-a-row", "Kill three in a row",
           "Black to play: White has three empty points in a row. Stop it from making two eyes.", """
        9 . . . . X O . . .
        8 . . . . X O O O O
        7 . . . . X X X X X
        """, "G8", {
            "H9": "RIGHT: You took the middle point: White can make only one eye.",
            "G9 H9": "WRONG: White takes the middle point and captures your stone: two eyes.",
        }),
    Source("kill", "bent-three", "Kill the bent three",
           "Black to play: stop White from making two eyes.", """
        9 . . O X . . . . .
        8 . O O X . . . . .
        7 O O X X . . . . .
        6 X X X . . . . . .
        """, "B8", {
            "A9": "RIGHT: The corner point is the middle of the bent three: White can make only one eye.",
            "A8 A9": "WRONG: White takes the middle point: two eyes.",
        }),
    Source("kill", "pyramid-four", "Kill the pyramid four",
           "Black to play: stop White from making two eyes.", """
        4 . . . . X X X X X
        3 . . . X X O O O X
        2 . . . X O O . O O
        1 . . . X O . . . O
        """, "G3", {
            "G1": "RIGHT: The middle of the four points: White can make only one eye.",
            "F1 G1": "WRONG: White takes the middle point: two eyes.",
        }),
    Source("kill", "bulky-five", "Kill the bulky five",
           "Black to play: stop White from making two eyes.", """
        4 X X X X X . . . .
        3 O O O O X X . . .
        2 O . . O O X . . .
        1 O . . . O X . . .
        """, "B3", {
            "C1": "RIGHT: The vital point of the five: White can make only one eye.",
            "B1 C1": "WRONG: White takes the vital point: two eyes.",
        }),
    Source("kill", "crossed-five", "Kill the cross",
           "Black to play: stop White from making two eyes.", """
        5 X X X X X . . . .
        4 X O O O X X . . .
        3 O O . O O X . . .
        2 O . . . O X . . .
        1 O O . O O X . . .
        """, "B3", {
            "C2": "RIGHT: The centre of the cross: White can make only one eye.",
            "C3 C2": "WRONG: White takes the centre: four eyes.",
        }),
    Source("kill", "reduce", "Make the space smaller",
           "Black to play: White's space is just big enough for two eyes. Make it smaller.", """
        3 X X X X X X . . .
        2 . O O O O X . . .
        1 . . . . O X . . .
        """, "B2", {
            "A2": "RIGHT: Now White's space is too small for two eyes.",
            "B1": "RIGHT: Now White's space is too small for two eyes.",
            "C1": "RIGHT: Now White's space is too small for two eyes.",
        }),
    Source("kill", "three-on-the-edge", "Three on the edge",
           "Black to play: White has three empty points in a row on the edge. Stop two eyes.", """
        3 . X X X X X X X .
        2 . X O O O O O X .
        1 . X O . . . O X .
        """, "C2", {
            "E1": "RIGHT: You took the middle point: White can make only one eye.",
            "D1 E1": "WRONG: White takes the middle point: two eyes.",
        }),
    Source("kill", "no-second-eye", "No second eye",
           "Black to play: White has one eye in the corner. Stop the second one.", """
        3 X X X X X X . . .
        2 O O O O X . . . .
        1 . O . . X . . . .
        """, "B2", {
            "D1": "RIGHT: C1 cannot become an eye now: White has only one eye.",
            "C1 D1": "WRONG: White captures your stone, and C1 becomes its second eye.",
        }),
    Source("kill", "false-eye", "Kill with a false eye",
           "Black to play: White has an eye in the corner. Make its other eye false.", """
        3 X X X X X X X X .
        2 O O O O O O . X .
        1 . O O O O . O X .
        """, "B2", {
            "G2": "RIGHT: G1 is cut off, so F1 is a false eye: White has only one eye.",
        }),
    # -- live ----------------------------------------------------------------------------------------------------------
    Source("live", "three-in-a-row", "Live with three in a row",
           "Black to play: make two eyes.", """
        3 O O O O O . . . .
        2 X X X X O . . . .
        1 . . . X O . . . .
        """, "B2", {
            "B1": "RIGHT: The middle point makes two eyes, A1 and C1: alive.",
            "A1 B1": "WRONG: White takes the middle point: only one eye.",
        }),
    Source("live", "bent-three", "Live with the bent three",
           "Black to play: make two eyes.", """
        4 O O O . . . . . .
        3 X X O O . . . . .
        2 . X X O . . . . .
        1 . . X O . . . . .
        """, "B2", {
            "A1": "RIGHT: The corner point is the middle of the bent three: two eyes, A2 and B1.",
            "B1 A1": "WRONG: White takes the middle point: only one eye.",
        }),
    Source("live", "pyramid-four", "Live with the pyramid four",
           "Black to play: make two eyes.", """
        4 O O O O O . . . .
        3 O X X X O O . . .
        2 X X . X X O . . .
        1 X . . . X O . . .
        """, "B2", {
            "C1": "RIGHT: The middle of the four points: three eyes.",
            "C2 C1": "WRONG: White takes the middle point: only one eye.",
        }),
    Source("live", "crossed-five", "Live with the cross",
           "Black to play: make two eyes.", """
        5 O O O O O . . . .
        4 O X X X O O . . .
        3 X X . X X O . . .
        2 X . . . X O . . .
        1 X X . X X O . . .
        """, "B3", {
            "C2": "RIGHT: The centre of the cross: four eyes.",
            "C3 C2": "WRONG: White takes the centre: only one eye.",
        }),
    Source("live", "make-room", "Make room for two eyes",
           "Black to play: make your space big enough for two eyes.", """
        3 O O O O O O . . .
        2 . X X X X O . . .
        1 . . . . X O . . .
        """, "B2", {
            "A2": "RIGHT: Four points in a row: White cannot stop two eyes now.",
            "C1 A2": "WRONG: White blocks at the edge: the space is too small for two eyes.",
        }),
    Source("live", "bulky-five", "Live with the bulky five",
           "Black to play: make two eyes.", """
        4 O O O O O . . . .
        3 X X X X O O . . .
        2 X . . X X O . . .
        1 X . . . X O . . .
        """, "B3", {
            "C1": "RIGHT: The vital point of the five: two eyes.",
            "B1": "RIGHT: Two eyes: alive.",
            "C2": "RIGHT: Two eyes: alive.",
        }),
    # -- ko ------------------------------------------------------------------------------------------------------------
    Source("ko", "take-the-ko", "Take the ko",
           "Black to play: capture the white stone.", """
        6 . . . . X O . . .
        5 . . . X O . O . .
        4 . . . . X O . . .
        """, "E5", {
            "F5": "RIGHT: You took the stone. This is a ko: White may not take back at once.",
        }),
    Source("ko", "ko-on-the-edge", "Ko on the edge",
           "Black to play: capture the white stone.", """
        2 . . . . X O O . .
        1 . . . X O . O . .
        """, "E1", {
            "F1": "RIGHT: You took the stone. This is a ko: White may not take back at once.",
        }),
    Source("ko", "save-with-ko", "Save your stones with a ko",
           "Black to play: your two stones are in atari. Save them.", """
        6 . . . . X O . . .
        5 . . . X O . O . .
        4 . . . O X O . . .
        3 . . O . X O . . .
        2 . . . . O . . . .
        """, "E4", {
            "F5": "RIGHT: Taking the ko gives your stones a liberty, and White may not take back at once.",
            "D3 D2": "WRONG: Still one liberty: White captures three stones.",
        }),
    Source("ko", "win-the-ko", "Win the ko",
           "Black to play: take the ko, and win it.", """
        6 . . . . X O . . .
        5 . . . X O . O . .
        4 . . . . X O . . .
        2 . O X O . . . . .
        """, "E5", {
            "F5 C3 E5": "RIGHT: You filled the ko and joined four stones. White's threat takes only one stone.",
            "F5 C3 C1 E5": "WRONG: You answered a small threat, and White took the ko back.",
        }, unchecked="which move wins a ko fight is about timing, which GNU Go's tactical reading does not judge"),
]
