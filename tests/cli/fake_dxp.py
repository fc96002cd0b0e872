#!/usr/bin/env python3
"""A DXP follower that plays no draughts, for the match tests (dxp_peer.sh).

Usage: fake_dxp.py MODE PORTFILE

It listens on 127.0.0.1 (a free port, written to PORTFILE once it listens),
takes one connection after another, accepts every GAMEREQ (GAMEACC code 0)
and, where a move of its own is awaited, does what MODE says:
  resign   GAMEEND reason 1 (it gives up), stop code 0
  garbage  a chat and then a message that is no DXP, both holding an escape
           sequence (ESC [ 2 J) and two bytes outside ASCII (UTF-8 'e'
           acute): a referee that prints or stores them unescaped lets the
           peer write to a terminal
A GAMEEND from the initiator is answered with GAMEEND (reason 0); stop code
1 ends the program. It ends by itself after 300 s without a connection.
"""
import socket
import sys


def send(conn, text):
    conn.sendall(text + b"\0")


def serve(conn, mode):
    buf = b""
    while True:
        data = conn.recv(4096)
        if not data:
            return False
        buf += data
        while b"\0" in buf:
            msg, buf = buf.split(b"\0", 1)
            if msg.startswith(b"R"):
                send(conn, b"A" + b"fake".ljust(32) + b"0")
                if mode == "resign":
                    send(conn, b"E10")
                else:
                    send(conn, b"Chello \x1b[31mred\x1b[0m")
                    send(conn, b"M\x1b[2J\xc3\xa9")
            elif msg.startswith(b"M") and mode == "resign":
                send(conn, b"E10")
            elif msg.startswith(b"E"):
                if msg[2:3] == b"1":
                    return True
                if msg[1:2] != b"0":  # the initiator ended the game: answered
                    send(conn, b"E00")


def main():
    mode, portfile = sys.argv[1], sys.argv[2]
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(4)
    srv.settimeout(300)
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % srv.getsockname()[1])
    import os
    os.rename(portfile + ".tmp", portfile)
    while True:
        try:
            conn, _ = srv.accept()
        except socket.timeout:
            return 0
        with conn:
            if serve(conn, mode):
                return 0


if __name__ == "__main__":
    sys.exit(main())
