#!/bin/bash
# The table of a match played by a job array of shard.sh, once every task
# has succeeded:
#
#   shards=$(sbatch --parsable --array=1-8 ... docs/slurm/shard.sh results ...)
#   sbatch --dependency=afterok:$shards --output=results/merge.log \
#       docs/slurm/merge.sh results --variant chess --sprt 0,5,0.05,0.05
#
# The shards' state files say how large the match is and how many shards
# it has: a missing shard or game, or a file of another match, fails the
# merge (and names it) rather than publish a short table.
#SBATCH --job-name=catchess-merge
set -eu
dir=$1
shift
catchess match --merge "$dir"/shard*.pgn --pgn "$dir/all.pgn" "$@" > "$dir/table.txt"
cat "$dir/table.txt"
