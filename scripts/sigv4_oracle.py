#!/usr/bin/env python3
"""botocore's S3 SigV4 signer as an independent oracle for the Storage module's signer (Tests/StorageTests).

Reads JSON lines on stdin, each {"method", "url", "headers": {name: value}, "body_hex", "timestamp", "access_key",
"secret_key", "session_token" (optional), "region"}, and prints for each a JSON line {"authorization", "canonical_request",
"string_to_sign"} as botocore's S3SigV4Auth makes them at that timestamp. Needs botocore (PyPI); exits 69 without it.
"""
import datetime
import json
import sys

try:
    import botocore.auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials
except ImportError:
    print("botocore is not installed", file=sys.stderr)
    sys.exit(69)

for line in sys.stdin:
    case = json.loads(line)
    fixed = datetime.datetime.strptime(case["timestamp"], "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)
    botocore.auth.get_current_datetime = lambda fixed=fixed: fixed
    credentials = Credentials(case["access_key"], case["secret_key"], case.get("session_token"))
    request = AWSRequest(method=case["method"], url=case["url"], headers=case["headers"],
                         data=bytes.fromhex(case.get("body_hex", "")))
    signer = botocore.auth.S3SigV4Auth(credentials, "s3", case["region"])
    signer.add_auth(request)
    canonical = signer.canonical_request(request)
    print(json.dumps({"authorization": request.headers["Authorization"], "canonical_request": canonical,
                      "string_to_sign": signer.string_to_sign(request, canonical)}), flush=True)
