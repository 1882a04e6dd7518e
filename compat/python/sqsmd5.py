"""MD5 digests as SQS defines them (reference section 6), computed on the client side the way
the strictest SDK (Java v2) checks them, so every Python client verifies what sqslite returns."""

import hashlib
import struct


def of_body(body: str) -> str:
    return hashlib.md5(body.encode("utf-8")).hexdigest()


def of_attributes(attributes: dict) -> str:
    digest = hashlib.md5()

    def field(data: bytes):
        digest.update(struct.pack(">I", len(data)))
        digest.update(data)

    for name in sorted(attributes, key=lambda n: n.encode("utf-8")):
        value = attributes[name]
        field(name.encode("utf-8"))
        field(value["DataType"].encode("utf-8"))
        if "BinaryValue" in value:
            digest.update(b"\x02")
            field(bytes(value["BinaryValue"]))
        else:
            digest.update(b"\x01")
            field(value["StringValue"].encode("utf-8"))
    return digest.hexdigest()
