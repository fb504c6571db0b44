#!/bin/bash
# The merge step of explore-array.sh: run it after every array task has ended
#   sbatch --dependency=afterany:"$jobid" deploy/slurm/merge.sh
# It prints the report of the whole exploration to its log and exits 1 when a check
# failed in some run (the last line is the replay command), 2 when a shard is missing
# (the message names it; MERGE_OPTIONS=--partial merges what is there).
#SBATCH --job-name=groupsim-merge
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --time=00:10:00
#SBATCH --output=groupsim-merge-%j.log
set -uo pipefail

RESULTS=${RESULTS:-results}
GROUPSIM=${GROUPSIM:-groupsim}

"$GROUPSIM" merge "$RESULTS" ${MERGE_OPTIONS:-}
