#!/usr/bin/env python3
"""Total instructions of a callgrind output file and, for each function
named, its calls and inclusive instructions (its own plus its callees').

Usage: scripts/callgrind-fn.py FILE [FUNCTION...]
Prints one line: TOTAL, then for each FUNCTION: NAME CALLS SELF INCLUSIVE.
The file is valgrind --tool=callgrind's (name compression and the Ir event
first, as callgrind writes it); a function not in it has 0 calls and cost.
Used by scripts/table-cost.sh (docs/eval.md, "Cost")."""
import re
import sys

NAME = re.compile(r'\((\d+)\)(?: (.*))?$')


def parse(path):
    """(total, self cost by function, calls by callee, callees' inclusive
    cost by caller)."""
    names, selfc, calls, callees = {}, {}, {}, {}
    fn = cfn = pending = total = None

    def name(text):
        m = NAME.match(text)
        if not m:
            return text
        if m.group(2) is not None:
            names[m.group(1)] = m.group(2)
        return names[m.group(1)]

    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('fn='):
                fn = name(line[3:])
            elif line.startswith('cfn='):
                cfn = name(line[4:])
            elif line.startswith('calls='):
                pending = (cfn, int(line[6:].split()[0]))
            elif line.startswith(('summary:', 'totals:')):
                total = int(line.split()[1])
            elif line and (line[0].isdigit() or line[0] in '+-*'):
                parts = line.split()
                cost = int(parts[1]) if len(parts) > 1 else 0
                if pending:
                    callee, n = pending
                    calls[callee] = calls.get(callee, 0) + n
                    if callee != fn:  # a recursive call is in its own cost already
                        callees[fn] = callees.get(fn, 0) + cost
                    pending = None
                else:
                    selfc[fn] = selfc.get(fn, 0) + cost
    if total is None:
        sys.exit(f'callgrind-fn: {path}: no summary or totals line (not a finished callgrind file?)')
    return total, selfc, calls, callees


def main():
    if len(sys.argv) < 2:
        sys.exit('usage: callgrind-fn.py FILE [FUNCTION...]')
    try:
        total, selfc, calls, callees = parse(sys.argv[1])
    except OSError as e:
        sys.exit(f'callgrind-fn: {sys.argv[1]}: {e.strerror}')
    out = [str(total)]
    for f in sys.argv[2:]:
        s = selfc.get(f, 0)
        out += [f, str(calls.get(f, 0)), str(s), str(s + callees.get(f, 0))]
    print(' '.join(out))


if __name__ == '__main__':
    main()
