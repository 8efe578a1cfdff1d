using Relief.Native;

namespace Relief
{
    /// <summary>The check that the loaded relief library speaks the C ABI these bindings were
    /// written against. Every entry point that needs no handle (opening a world or planet,
    /// the default configs) runs it first, so a mismatched library fails with one clear
    /// exception instead of misread structs.</summary>
    public static class Abi
    {
        /// <summary>The ABI version these bindings declare (RELIEF_ABI_VERSION).</summary>
        public const int Expected = (int)NativeMethods.RELIEF_ABI_VERSION;

        static volatile bool verified;

        /// <summary>Asks the library its ABI version once per process; throws a
        /// ReliefException (UnsupportedVersion) if it differs from <see cref="Expected"/>.</summary>
        public static void Require()
        {
            if (verified)
                return;
            Verify((int)NativeMethods.relief_abi_version());
            verified = true;
        }

        /// <summary>Throws unless <paramref name="loaded"/> is <see cref="Expected"/>.</summary>
        public static void Verify(int loaded)
        {
            if (loaded != Expected)
                throw new ReliefException(ReliefStatus.UnsupportedVersion, string.Format(
                    "the relief library has C ABI version {0}, these bindings were written for {1}: ship the library and the bindings from the same relief release",
                    loaded, Expected));
        }
    }
}
