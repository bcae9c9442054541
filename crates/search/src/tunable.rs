//! A search parameter a tuner may set: each is declared once, in
//! `params.rs`'s `tunables!` block, with its default, its range and the
//! step an SPSA tuner perturbs it by. Each becomes a function of the same
//! name (`params::rfp_margin()`): in the default build it returns the
//! default, a constant the compiler folds in, so the search and its bench
//! node counts are exactly those of plain constants; built with the
//! `tune` feature it reads a value `setoption` may change (an atomic per
//! parameter), and the engine lists every parameter as a UCI spin option
//! and prints them as OpenBench's SPSA input ([`Tunable::spsa_line`]).

/// OpenBench's SPSA input gives each parameter `r_end`, the learning rate
/// at the tune's end; 0.002 is what OpenBench's own examples use.
pub const SPSA_R_END: f64 = 0.002;

/// One tunable parameter: its name (the UCI option's), default and range,
/// and `step`, the perturbation at the tune's end (OpenBench's `c_end`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub step: i32,
}

impl Tunable {
    /// The parameter as OpenBench's SPSA input takes it: `name, int,
    /// default, min, max, c_end, r_end`.
    pub fn spsa_line(&self) -> String {
        format!("{}, int, {}, {}, {}, {}, {SPSA_R_END}", self.name, self.default, self.min, self.max, self.step)
    }

    /// The parameter's `uci` line (a spin option, its default its value).
    pub fn uci_line(&self) -> String {
        format!("option name {} type spin default {} min {} max {}", self.name, self.default, self.min, self.max)
    }

    /// `text` read as a value of this parameter, within its range.
    pub fn read(&self, text: &str) -> Result<i32, String> {
        match text.trim().parse::<i32>() {
            Ok(v) if (self.min..=self.max).contains(&v) => Ok(v),
            _ => Err(format!(
                "option '{}' takes a whole number from {} to {}, got '{text}'",
                self.name, self.min, self.max
            )),
        }
    }
}

/// Declares the tunable parameters: `name: type = default, min..=max, step
/// s;` each, with its doc comment. Makes [`Tunable`]s of them all
/// (`TUNABLES`, in order), a function per parameter, and in the `tune`
/// build their values and `set`.
macro_rules! tunables {
    ($($(#[doc = $doc:literal])* $name:ident: $ty:ty = $default:literal, $min:literal..=$max:literal, step $step:literal;)*) => {
        /// Every tunable parameter, in declaration order: the `tune`
        /// build's UCI options and SPSA input.
        pub const TUNABLES: &[$crate::tunable::Tunable] = &[
            $($crate::tunable::Tunable { name: stringify!($name), default: $default, min: $min, max: $max, step: $step }),*
        ];

        /// Each parameter's place in `TUNABLES` (and in `VALUES`).
        #[allow(non_camel_case_types, dead_code)]
        enum Slot { $($name),* }

        /// The values `setoption` set (the `tune` build).
        #[cfg(feature = "tune")]
        static VALUES: [std::sync::atomic::AtomicI32; TUNABLES.len()] = [$(std::sync::atomic::AtomicI32::new($default)),*];

        $(
            $(#[doc = $doc])*
            #[inline(always)]
            pub fn $name() -> $ty {
                #[cfg(not(feature = "tune"))]
                {
                    $default
                }
                #[cfg(feature = "tune")]
                {
                    VALUES[Slot::$name as usize].load(std::sync::atomic::Ordering::Relaxed) as $ty
                }
            }
        )*

        /// Sets the tunable parameter `name` (any case) from `text`, checked
        /// against its range; `None` if there is no such parameter. Only
        /// the `tune` build has values to set.
        #[cfg(feature = "tune")]
        pub fn set_tunable(name: &str, text: &str) -> Option<Result<(), String>> {
            let i = TUNABLES.iter().position(|t| t.name.eq_ignore_ascii_case(name))?;
            Some(TUNABLES[i].read(text).map(|v| VALUES[i].store(v, std::sync::atomic::Ordering::Relaxed)))
        }
    };
}
pub(crate) use tunables;
