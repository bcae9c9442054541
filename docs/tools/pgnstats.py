#!/usr/bin/env python3
"""What a `catchess match` record says beyond its score (docs/search-log.md).

    pgnstats.py RECORD.pgn ENGINE

For every engine in the record: the clock it used per game (the sum of
its move times against the time control's budget for that many moves),
the median clock left, and the time forfeits. For ENGINE's losses: how
many came from a position it had itself scored +1.0 or better, and the
move at which its own score first fell below -1.5 (where the game
turned, as it saw it).

It reads the records `catchess match` writes: the movetext from the
standard start, each engine move followed by `{SCORE/DEPTH TIMEs}`,
SCORE in pawns (`+0.25`) or a mate (`-M6`), the random opening plies
without comments. Two-player records only (Cat Chess's cats move too).
"""
import re
import statistics
import sys

TOKEN = re.compile(r'\{[^}]*\}|\d+\.(?:\.\.)?|\S+')
ENGINE_COMMENT = re.compile(r'\{([+-]?)(M?)([0-9.]+)/\d+ ([0-9.]+)s\}')
RESULTS = {'1-0', '0-1', '1/2-1/2', '*'}


def games(text):
    """Each game's tags and its plies as (side, score or None, seconds or None)."""
    for chunk in text.split('[Event ')[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', chunk))
        movetext = chunk.split('\n\n', 1)[1] if '\n\n' in chunk else ''
        plies = []
        for token in TOKEN.findall(movetext):
            if token.startswith('{'):
                found = ENGINE_COMMENT.fullmatch(token)
                if found and plies:
                    sign, mate, number, seconds = found.groups()
                    score = 100.0 if mate else float(number)
                    plies[-1] = (plies[-1][0], -score if sign == '-' else score, float(seconds))
            elif token[0].isdigit() and token.rstrip('.').isdigit() or token in RESULTS:
                continue
            else:
                plies.append(('White' if len(plies) % 2 == 0 else 'Black', None, None))
        yield tags, plies


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    record, me = sys.argv[1], sys.argv[2]
    used, budget, left, forfeits = {}, {}, {}, {}
    losses = from_good = 0
    turned = {'before move 20': 0, 'moves 20-39': 0, 'move 40 or later': 0, 'never': 0}
    for tags, plies in games(open(record).read()):
        base, increment = map(float, tags.get('TimeControl', '10+0.1').split('+'))
        for side in ('White', 'Black'):
            who = tags[side]
            times = [t for s, _, t in plies if s == side and t is not None]
            allowed = base + increment * len(times)
            used[who] = used.get(who, 0.0) + sum(times)
            budget[who] = budget.get(who, 0.0) + allowed
            left.setdefault(who, []).append(allowed - sum(times))
        if 'time' in tags.get('TerminationDetails', ''):
            forfeits[tags['TerminationDetails']] = forfeits.get(tags['TerminationDetails'], 0) + 1
        mine = 'White' if tags['White'] == me else 'Black' if tags['Black'] == me else None
        lost = {'White': '0-1', 'Black': '1-0'}
        if mine is None or tags['Result'] != lost[mine]:
            continue
        losses += 1
        scores = [(i // 2 + 1, v) for i, (s, v, _) in enumerate(plies) if s == mine and v is not None]
        from_good += any(v >= 1.0 for _, v in scores)
        move = next((n for n, v in scores if v < -1.5), None)
        key = ('never' if move is None else 'before move 20' if move < 20
               else 'moves 20-39' if move < 40 else 'move 40 or later')
        turned[key] += 1
    for who in used:
        games_played = len(left[who])
        print(f'{who}: {games_played} games, clock used {used[who] / games_played:.1f} s of '
              f'{budget[who] / games_played:.1f} s ({100 * used[who] / budget[who]:.0f} %), '
              f'clock left median {statistics.median(left[who]):.2f} s')
    print('time forfeits:', forfeits or 'none')
    print(f'{me}: {losses} losses, {from_good} from its own score of +1.0 or better; '
          f'first below -1.5: {turned}')


if __name__ == '__main__':
    main()
