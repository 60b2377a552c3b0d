"""Writes the wheel of the package `mnk` for one CPython version (PEP 427):
the package's files, the extension built for that version, the metadata
(PEP 566) and the RECORD of every file's hash. //python:wheel runs it.

  python3 wheel.py --out=mnk-1.0.0-cp311-cp311-linux_x86_64.whl \
      --python=3.11 --version=1.0.0 --extension=_mnk.so \
      --readme=README.md --license=LICENSE mnk/__init__.py ...
"""

import argparse
import base64
import hashlib
import os
import zipfile

SUMMARY = ("The perfect player of tic-tac-toe and its family (m,n,k-games, "
           "gravity, misere): solved tables and exact search")

# A fixed time for every entry: the same sources make the same wheel.
EPOCH = (1980, 1, 1, 0, 0, 0)


def metadata(version, python, readme):
    """The METADATA file: name, version, licence, summary, the one Python
    it runs on, and the README as its description."""
    minor = int(python.split(".")[1])
    return "".join([
        "Metadata-Version: 2.1\n",
        "Name: mnk\n",
        f"Version: {version}\n",
        f"Summary: {SUMMARY}\n",
        "License: MIT\n",
        f"Requires-Python: >={python},<3.{minor + 1}\n",
        "Classifier: License :: OSI Approved :: MIT License\n",
        "Classifier: Operating System :: POSIX :: Linux\n",
        "Classifier: Programming Language :: C++\n",
        f"Classifier: Programming Language :: Python :: {python}\n",
        "Classifier: Typing :: Typed\n",
        "Description-Content-Type: text/markdown\n",
        "\n",
        readme,
    ])


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return f"{name},sha256={digest.rstrip(b'=').decode()},{len(data)}\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--python", required=True)  # "3.11"
    parser.add_argument("--version", required=True)
    parser.add_argument("--extension", required=True)
    parser.add_argument("--readme", required=True)
    parser.add_argument("--license", required=True)
    parser.add_argument("sources", nargs="+")  # the package's files
    args = parser.parse_args()

    version = args.version
    tag = "cp" + args.python.replace(".", "")
    suffix = f".cpython-{tag[2:]}-x86_64-linux-gnu.so"
    info = f"mnk-{version}.dist-info"
    files = [(f"mnk/{os.path.basename(s)}", open(s, "rb").read())
             for s in sorted(args.sources)]
    files.append(("mnk/_mnk" + suffix, open(args.extension, "rb").read()))
    files.append((f"{info}/licenses/LICENSE", open(args.license, "rb").read()))
    files.append((f"{info}/METADATA", metadata(
        version, args.python, open(args.readme).read()).encode()))
    files.append((f"{info}/WHEEL", "".join([
        "Wheel-Version: 1.0\n",
        "Generator: mnk python/wheel.py\n",
        "Root-Is-Purelib: false\n",
        f"Tag: {tag}-{tag}-linux_x86_64\n",
    ]).encode()))
    record = "".join(record_line(n, d) for n, d in files)
    files.append((f"{info}/RECORD", (record + f"{info}/RECORD,,\n").encode()))

    with zipfile.ZipFile(args.out, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files:
            entry = zipfile.ZipInfo(name, EPOCH)
            entry.compress_type = zipfile.ZIP_DEFLATED
            mode = 0o755 if name.endswith(".so") else 0o644
            entry.external_attr = (0o100000 | mode) << 16
            wheel.writestr(entry, data)


if __name__ == "__main__":
    main()
