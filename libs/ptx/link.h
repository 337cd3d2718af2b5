// Links parsed PTX modules into one (what cuLinkComplete does with the PTX
// inputs of a link): module-scope symbols are resolved by name across the
// inputs as the PTX ISA's linking directives say, so a kernel of one input
// reaches a `.visible .global` variable or calls a `.visible .func` that
// another defines and it only declares `.extern`.
//
// Rules:
//  - `.extern` declarations of `.global`/`.const` variables bind to the one
//    `.visible` (else the first `.weak`) definition of that name in any
//    input, of the same state space, and `.extern .func` prototypes to the
//    `.visible` (else first `.weak`) `.func` of that name; one with no
//    definition is an error ("undefined reference"). `.extern .shared` arrays (dynamic shared
//    memory) need no definition: one of each name is kept, with the largest
//    alignment asked.
//  - Two `.visible` definitions of one name (variables or functions), or
//    two kernels (`.entry`) of one name, are an error ("multiple
//    definition").
//  - Internal symbols (no linking directive) stay private to their input:
//    one whose name another input also uses is renamed "<name>$<input>" in
//    its own input, references included.
// The result takes the newest `.version` and `.target` of its inputs.
// Errors are InvalidArgument and name the input and the symbol.
#ifndef STREAMHAL_PTX_LINK_H_
#define STREAMHAL_PTX_LINK_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ptx/ir.h"

namespace streamhal::ptx {

struct LinkInput {
  std::string name;  // for messages: the name given to cuLinkAddData, or the file
  Module module;
};

absl::StatusOr<Module> LinkModules(std::vector<LinkInput> inputs);

}  // namespace streamhal::ptx

#endif  // STREAMHAL_PTX_LINK_H_
