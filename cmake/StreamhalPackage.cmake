# Installation and the exported CMake package; filled in with the first installable targets.
