#!/bin/bash
# One exploration split into shards as a Slurm job array: array task I runs
#   groupsim explore SCENARIO --runs RUNS --shard I/SHARDS --format json --output RESULTS/shard-I.json
#
#   mkdir -p results
#   jobid=$(sbatch --parsable deploy/slurm/explore-array.sh)
#   sbatch --dependency=afterany:"$jobid" deploy/slurm/merge.sh
#
# Keep --array=0-(SHARDS-1) and SHARDS equal. Settings come from the environment
# (sbatch passes it on): SCENARIO, RUNS, SHARDS, SEED, RESULTS (a folder every node
# sees, such as one on the cluster's shared file system) and GROUPSIM (the tool).
# A shard that failed is run again alone, with the same settings:
#   sbatch --array=2 deploy/slurm/explore-array.sh
#SBATCH --job-name=groupsim-explore
#SBATCH --array=0-3
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
#SBATCH --mem=1G
#SBATCH --time=02:00:00
#SBATCH --output=groupsim-explore-%A_%a.log
set -uo pipefail

SCENARIO=${SCENARIO:-Scenarios/pickles-race-window.yaml}
RUNS=${RUNS:-100000}
SHARDS=${SHARDS:-4}
SEED=${SEED:-}
RESULTS=${RESULTS:-results}
GROUPSIM=${GROUPSIM:-groupsim}

if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
  echo "error: submit this script with sbatch (it reads SLURM_ARRAY_TASK_ID)" >&2
  exit 2
fi
if [ "${SLURM_ARRAY_TASK_MAX:-0}" -ge "$SHARDS" ]; then
  echo "error: the array goes up to $SLURM_ARRAY_TASK_MAX but SHARDS is $SHARDS: keep --array=0-$((SHARDS - 1))" >&2
  exit 2
fi

status=0
"$GROUPSIM" explore "$SCENARIO" --runs "$RUNS" ${SEED:+--seed "$SEED"} --shard "$SLURM_ARRAY_TASK_ID/$SHARDS" --workers "${SLURM_CPUS_PER_TASK:-1}" --format json --output "$RESULTS/shard-$SLURM_ARRAY_TASK_ID.json" || status=$?
# 1: a check failed in some run of this shard. That is a finding, which merge.sh
# reports, not a failed task.
[ "$status" -le 1 ]
