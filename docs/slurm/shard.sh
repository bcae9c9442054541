#!/bin/bash
# One task of a Slurm job array: shard $SLURM_ARRAY_TASK_ID of a match.
# The first argument is the results directory (shared by the tasks), the
# rest are the match's flags, the same for every task (with --seed):
#
#   sbatch --array=1-8 --output=results/shard%a.log docs/slurm/shard.sh results \
#       --variant chess --engine 'name=new cmd=./new' --engine 'name=old cmd=./old' \
#       --tc 10+0.1 --games 2000 --seed 7
#
# The same command starts the shard and, after a requeue (a preemption, a
# failed node, or the trap below), goes on with it: --resume starts it
# when it has no state yet and plays only the games its records lack.
# --shard auto takes the index and the count from the array.
#SBATCH --job-name=catchess-shard
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --cpus-per-task=1
set -u
dir=$1
shift
# SIGTERM (scancel --signal=TERM --full, a preemption's warning): the
# match kills its engines, keeps every finished game and exits 143; then
# the task asks to be run again.
trap 'stopped=1' TERM
catchess match "$@" --shard auto --resume --pgn "$dir/shard$SLURM_ARRAY_TASK_ID.pgn"
status=$?
if [ -n "${stopped:-}" ]; then
    scontrol requeue "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}"
fi
exit $status
