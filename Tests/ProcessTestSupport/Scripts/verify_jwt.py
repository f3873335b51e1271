#!/usr/bin/python3
"""Test support: verifies an ES256 JWT independently of hrbridge, with Debian's python3-cryptography.

Usage: verify_jwt.py PUBLIC_KEY_PEM TOKEN
Prints {"header": {...}, "claims": {...}} when the signature is valid; exits 1 otherwise.
"""
import base64
import json
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def decode(segment):
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


with open(sys.argv[1], "rb") as f:
    public_key = serialization.load_pem_public_key(f.read())
header, claims, signature = sys.argv[2].split(".")
raw = decode(signature)
if len(raw) != 64 or "=" in sys.argv[2]:
    sys.exit("signature is not 64 raw bytes in unpadded base64url")
der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
try:
    public_key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
except InvalidSignature:
    sys.exit("invalid signature")
print(json.dumps({"header": json.loads(decode(header)), "claims": json.loads(decode(claims))}))
