#!/bin/bash
# complete.sh COMPLETION-FILE WORD... : what bash completion offers for the
# last WORD of the command line WORD... (the program first), one a line,
# sorted and without repeats; as bash calls the function 'complete' names.
# The program is looked up on PATH, as in a user's shell.
file=$1
shift
# shellcheck source=/dev/null
. "$file" || exit 1
func=$(complete -p "$1" 2>/dev/null | sed -n 's/.* -F \([^ ]*\) .*/\1/p')
[ -n "$func" ] || { echo "complete.sh: $file registers no function for $1" >&2; exit 1; }
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
COMPREPLY=()
"$func" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" || exit 1
[ ${#COMPREPLY[@]} = 0 ] || printf '%s\n' "${COMPREPLY[@]}" | sort -u
