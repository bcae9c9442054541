# OpenBench builds an engine with `make EXE=<name> [EVALFILE=<network>]` in
# this directory, then runs `./<name> bench` and reads its last lines
# (docs/openbench.md). The default target builds the engine alone (no web
# app) and copies it to $(EXE):
#
#   make                                       ./catchess, the release build
#   make EXE=cc-dev EVALFILE=chess.nnue        with that network built in as EvalFile's <built-in>
#   make EXE=cc-tune TUNE=1                    the search's parameters as UCI options (SPSA)
#   make PROFILE=test WEB=1                    the binary `cargo test` builds (the test profile, the web app)
#
# The network is checked when it is built in (crates/games/build.rs): a
# file the engine would refuse fails the build, saying why.
EXE ?= catchess
EVALFILE ?=
TUNE ?=
WEB ?=
PROFILE ?= release
CARGO ?= cargo

# OpenBench passes its compiler as CC= (cargo); nothing here compiles C.
unexport CC CXX

# cargo writes the dev and test profiles to target/debug, the others to target/<profile>.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
PROFILE_DIR := $(if $(filter dev test,$(PROFILE)),debug,$(PROFILE))
FEATURES := $(if $(WEB),,--no-default-features) $(if $(TUNE),--features tune,)
NETWORK := $(if $(EVALFILE),CATCHESS_EVALFILE='$(abspath $(EVALFILE))',)

.PHONY: all
all:
	$(NETWORK) $(CARGO) build --profile $(PROFILE) -p catchess $(FEATURES) --bin catchess
	cp $(TARGET_DIR)/$(PROFILE_DIR)/catchess '$(EXE)'
