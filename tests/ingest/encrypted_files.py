"""Encrypted PDFs that open without a password (Standard handler, empty user password),
written byte by byte: RC4 (revision 3), AES-128 (revision 4) or AES-256 (revision 6).

``encrypted_pdf(path, streams, kind)`` encrypts each content stream with its object's key,
as a PDF writer would, so PDFium opens the file and decodes them.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from cryptography.hazmat.decrepit.ciphers.algorithms import ARC4
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from papermind.ingest.pdf_crypt import PAD, _hash_2b
from tests.support.pdf_bytes import pdf_file

FILE_ID = bytes(range(16))
PERMS = -4


def _rc4(key: bytes, data: bytes) -> bytes:
    enc = Cipher(ARC4(key), mode=None).encryptor()
    return enc.update(data) + enc.finalize()


def _aes_cbc(key: bytes, data: bytes, iv: bytes | None = None, pad: bool = True) -> bytes:
    iv = os.urandom(16) if iv is None else iv
    if pad:
        padder = padding.PKCS7(128).padder()
        data = padder.update(data) + padder.finalize()
    enc = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return iv + enc.update(data) + enc.finalize()


def _r3_dictionary(aes: bool) -> tuple[bytes, bytes]:
    """(encrypt dictionary, file key) for revision 3 (RC4) or 4 (AES-128)."""
    owner_key = hashlib.md5(PAD).digest()
    for _ in range(50):
        owner_key = hashlib.md5(owner_key).digest()
    owner = _rc4(owner_key, PAD)
    for i in range(1, 20):
        owner = _rc4(bytes(b ^ i for b in owner_key), owner)
    key = hashlib.md5(PAD + owner + (PERMS & 0xFFFFFFFF).to_bytes(4, "little") + FILE_ID).digest()
    for _ in range(50):
        key = hashlib.md5(key).digest()
    user = _rc4(key, hashlib.md5(PAD + FILE_ID).digest())
    for i in range(1, 20):
        user = _rc4(bytes(b ^ i for b in key), user)
    user += b"\0" * 16
    crypt = (b"/V 4 /R 4 /Length 128 /CF << /StdCF << /CFM /AESV2 /Length 16 "
             b"/AuthEvent /DocOpen >> >> /StmF /StdCF /StrF /StdCF") if aes else \
        b"/V 2 /R 3 /Length 128"
    head = b"<< /Filter /Standard %s /O <%s> /U <%s> /P %d >>" % (
        crypt, owner.hex().encode(), user.hex().encode(), PERMS)
    return head, key


def _r6_dictionary() -> tuple[bytes, bytes]:
    key = os.urandom(32)
    vsalt, ksalt = os.urandom(8), os.urandom(8)
    user = _hash_2b(vsalt) + vsalt + ksalt
    user_key = _aes_cbc(_hash_2b(ksalt), key, iv=b"\0" * 16, pad=False)[16:]
    head = (b"<< /Filter /Standard /V 5 /R 6 /Length 256 /CF << /StdCF << /CFM /AESV3 "
            b"/Length 32 /AuthEvent /DocOpen >> >> /StmF /StdCF /StrF /StdCF "
            b"/O <%s> /U <%s> /OE <%s> /UE <%s> /P %d >>") % (
        os.urandom(48).hex().encode(), user.hex().encode(), os.urandom(32).hex().encode(),
        user_key.hex().encode(), PERMS)
    return head, key


def encrypted_pdf(path: Path, streams: list[tuple[bytes, str]], kind: str) -> Path:
    """A one-page PDF whose content streams ``(data already encoded, filters)`` are
    encrypted by ``kind``: 'rc4', 'aes128' or 'aes256'."""
    head, key = _r6_dictionary() if kind == "aes256" else _r3_dictionary(kind == "aes128")
    first = 5
    numbers = list(range(first, first + len(streams)))
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents [%s] "
        b"/Resources << /Font << /F1 4 0 R >> >> >>" % b" ".join(b"%d 0 R" % n for n in numbers),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for number, (data, filters) in zip(numbers, streams, strict=True):
        if kind == "aes256":
            sealed = _aes_cbc(key, data)
        else:
            salt = b"sAlT" if kind == "aes128" else b""
            own = hashlib.md5(key + number.to_bytes(3, "little") + b"\0\0" + salt).digest()
            sealed = _aes_cbc(own, data) if kind == "aes128" else _rc4(own, data)
        filt = b" /Filter %s" % filters.encode() if filters else b""
        objects.append(b"<< /Length %d%s >>\nstream\n" % (len(sealed), filt) + sealed
                       + b"\nendstream")
    objects.append(head)
    ids = FILE_ID.hex().encode()
    path.write_bytes(pdf_file(objects, version=b"1.7", trailer=b" /Encrypt %d 0 R /ID [<%s> <%s>]"
                              % (len(objects), ids, ids)))
    return path
