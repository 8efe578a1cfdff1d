#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| relief_fuzz::things(data));
