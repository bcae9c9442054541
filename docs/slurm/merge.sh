#!/bin/bash
# The table of a match played by an array of N shard.sh tasks. Arguments:
# the results directory, N, the name of the merged records and table
# (DIR/NAME.pgn, DIR/NAME.txt), then merge flags. Once every task has
# succeeded:
#
#   shards=$(sbatch --parsable --array=1-8 ... docs/slurm/shard.sh results ...)
#   sbatch --dependency=afterok:$shards --output=results/merge.log \
#       docs/slurm/merge.sh results 8 all --variant chess --sprt 0,5,0.05,0.05
#
# The shards' state files say how large the match is and how many shards
# it has: a missing shard or game, or a file of another match, fails the
# merge (and names it) rather than publish a short table. Submitted with
# the shards instead, with --watch and the shards' --stop-file, it prints
# the result as the shards write and stops them once the SPRT decides.
#SBATCH --job-name=catchess-merge
set -eu
dir=$1
shards=$2
name=$3
shift 3
inputs=()
for k in $(seq 1 "$shards"); do
    inputs+=("$dir/shard$k.pgn")
done
catchess match --merge "${inputs[@]}" --pgn "$dir/$name.pgn" "$@" > "$dir/$name.txt"
cat "$dir/$name.txt"
