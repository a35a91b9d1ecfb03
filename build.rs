//! Tells the tests which processor features the build machine has, so that the tests of a SIMD
//! kernel run where the kernel runs and are marked ignored, with the reason, where it cannot
//! (a test that returned early would pass without checking anything). Tests run on the machine
//! that built them; when cross-compiling, no feature is assumed.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(host_ssse3)");
    println!("cargo::rustc-check-cfg=cfg(host_avx512f)");
    println!("cargo::rerun-if-changed=build.rs");
    let native = std::env::var("HOST").ok() == std::env::var("TARGET").ok();
    #[cfg(target_arch = "x86_64")]
    if native {
        if std::arch::is_x86_feature_detected!("ssse3")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            println!("cargo::rustc-cfg=host_ssse3");
        }
        if std::arch::is_x86_feature_detected!("avx512f") {
            println!("cargo::rustc-cfg=host_avx512f");
        }
    }
    let _ = native;
}
