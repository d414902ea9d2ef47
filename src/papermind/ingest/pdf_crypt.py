"""Decrypting a PDF's streams for the bomb check, when the file opens without a password.

A file encrypted by the Standard security handler with an empty user password (the common
"permissions only" PDF) opens in PDFium without asking, and PDFium then inflates its
streams: the bomb check must see them decrypted too. ``stream_decrypter`` derives such a
file's key (revisions 2 to 4: RC4 or AES-128; 5 and 6: AES-256) and answers a function that
decrypts one object's stream; None for a file that is not encrypted, needs a real password
(PDFium refuses it anyway) or uses another handler. Ciphers come from ``cryptography``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

from cryptography.hazmat.decrepit.ciphers.algorithms import ARC4
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

Decrypt = Callable[[int, int, bytes], bytes]
"""``decrypt(object number, generation, raw stream bytes)``"""

PAD = bytes.fromhex("28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a")
_ENCRYPT = re.compile(rb"/Encrypt\s*(?:(\d+)\s+(\d+)\s+R|(<<))")
_ID = re.compile(rb"/ID\s*\[\s*(<[0-9A-Fa-f\s]*>|\((?:\\.|[^\\)])*\))", re.DOTALL)
_INT = {key: re.compile(rb"/" + key + rb"\s+(-?\d+)") for key in (b"V", b"R", b"Length", b"P")}
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}


def stream_decrypter(data: bytes) -> Decrypt | None:
    """How to decrypt this file's streams (see the module), or None."""
    found = _ENCRYPT.search(data[-65536:]) or _ENCRYPT.search(data)
    if found is None:
        return None
    head = _dictionary(data, found)
    if b"/Standard" not in head:
        return None
    number = {k: _int(head, k) for k in _INT}
    if number[b"R"] is None or number[b"P"] is None:
        return None
    lengths = [int(v) for v in _INT[b"Length"].findall(head)] or [40]
    bits = max(lengths) * (8 if max(lengths) <= 32 else 1)  # a crypt filter's is in bytes
    try:
        return _decrypter(head, data, number[b"R"], number[b"P"], bits)
    except (ValueError, IndexError):
        return None


def _decrypter(head: bytes, data: bytes, revision: int, perms: int, bits: int) -> Decrypt | None:
    aes = b"/AESV" in head
    if revision >= 5:
        user = _string(head, b"U")
        key = _r6_key(user, _string(head, b"UE"), revision)
        return lambda _n, _g, raw: _aes(key, raw)
    if b"/StmF" in head and re.search(rb"/StmF\s*/Identity", head):
        return None
    ident = _ID.search(data[-65536:]) or _ID.search(data)
    first_id = _token(ident.group(1)) if ident else b""
    key = _r4_key(_string(head, b"O"), perms, first_id, revision, 16 if aes else bits // 8,
                  metadata=re.search(rb"/EncryptMetadata\s+false", head) is None)

    def decrypt(number: int, generation: int, raw: bytes) -> bytes:
        salt = b"sAlT" if aes else b""
        seed = key + number.to_bytes(3, "little") + generation.to_bytes(2, "little") + salt
        own = hashlib.md5(seed, usedforsecurity=False).digest()[:min(len(key) + 5, 16)]
        return _aes(own, raw) if aes else _rc4(own, raw)
    return decrypt


def _r4_key(owner: bytes, perms: int, first_id: bytes, revision: int, length: int, *,
            metadata: bool) -> bytes:
    """Algorithm 2 of ISO 32000 with the empty user password."""
    digest = hashlib.md5(PAD + owner[:32] + (perms & 0xFFFFFFFF).to_bytes(4, "little")
                         + first_id, usedforsecurity=False)
    if revision >= 4 and not metadata:
        digest.update(b"\xff\xff\xff\xff")
    key = digest.digest()
    length = 5 if revision == 2 else max(5, min(length, 16))
    if revision >= 3:
        for _ in range(50):
            key = hashlib.md5(key[:length], usedforsecurity=False).digest()
    return key[:length]


def _r6_key(user: bytes, user_key: bytes, revision: int) -> bytes:
    """The file key of revision 5 or 6 with the empty user password (Algorithm 2.A)."""
    salt = user[40:48]
    inner = hashlib.sha256(salt).digest() if revision == 5 else _hash_2b(salt)
    decryptor = Cipher(algorithms.AES(inner), modes.CBC(b"\0" * 16)).decryptor()
    return decryptor.update(user_key[:32]) + decryptor.finalize()


def _hash_2b(salt: bytes) -> bytes:
    """Algorithm 2.B (revision 6) for the empty password and no user data."""
    k = hashlib.sha256(salt).digest()
    rounds = 0
    while True:
        block = k * 64
        encryptor = Cipher(algorithms.AES(k[:16]), modes.CBC(k[16:32])).encryptor()
        e = encryptor.update(block) + encryptor.finalize()
        k = (hashlib.sha256, hashlib.sha384, hashlib.sha512)[sum(e[:16]) % 3](e).digest()
        rounds += 1
        if rounds >= 64 and e[-1] <= rounds - 32:
            return k[:32]


def _rc4(key: bytes, raw: bytes) -> bytes:
    decryptor = Cipher(ARC4(key), mode=None).decryptor()
    return decryptor.update(raw) + decryptor.finalize()


def _aes(key: bytes, raw: bytes) -> bytes:
    """AES-CBC with the IV in the first 16 bytes; padding left on (sizes only matter)."""
    usable = (len(raw) - 16) // 16 * 16
    if usable <= 0:
        return b""
    decryptor = Cipher(algorithms.AES(key), modes.CBC(raw[:16])).decryptor()
    return decryptor.update(raw[16:16 + usable]) + decryptor.finalize()


def _dictionary(data: bytes, found: re.Match[bytes]) -> bytes:
    if found.group(3):
        return data[found.start(3):found.start(3) + 4096]
    body = re.search(rb"(?<!\d)%d\s+%d\s+obj\b(.{0,4096}?)endobj" % (
        int(found.group(1)), int(found.group(2))), data, re.DOTALL)
    return body.group(1) if body else b""


def _int(head: bytes, key: bytes) -> int | None:
    match = _INT[key].search(head)
    return int(match.group(1)) if match else None


def _string(head: bytes, key: bytes) -> bytes:
    match = re.search(rb"/" + key + rb"\s*(<[0-9A-Fa-f\s]*>|\((?:\\.|[^\\)])*\))", head,
                      re.DOTALL)
    if match is None:
        raise ValueError(f"no /{key.decode()}")
    return _token(match.group(1))


def _token(token: bytes) -> bytes:
    """A PDF string token's bytes: <hex> or a (literal) with its escapes."""
    if token.startswith(b"<"):
        digits = re.sub(rb"\s", b"", token[1:-1])
        return bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode())
    out, body, i = bytearray(), token[1:-1], 0
    while i < len(body):
        ch = body[i:i + 1]
        if ch != b"\\":
            out += ch
            i += 1
            continue
        nxt = body[i + 1:i + 2]
        octal = re.match(rb"[0-7]{1,3}", body[i + 1:i + 4])
        if octal:
            out.append(int(octal.group(0), 8) & 0xFF)
            i += 1 + len(octal.group(0))
            continue
        if nxt in (b"\r", b"\n"):
            i += 2 + (nxt == b"\r" and body[i + 2:i + 3] == b"\n")
            continue
        out += _ESCAPES.get(nxt, nxt)
        i += 2
    return bytes(out)
