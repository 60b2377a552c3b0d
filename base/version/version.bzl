"""The project's version, written here and nowhere else (semantic
versioning: major.minor.patch). Every surface reports it alike: the C
library's mnk_version(), Python's mnk.__version__ and its wheel, the npm
package and the browser module's mnk.version, and every tool's --version
("play 1.0.0"). C++ reads it from version.h, made from it (BUILD).

    load("//base/version:version.bzl", "VERSION")  # "1.0.0"
"""

VERSION = "1.0.0"
