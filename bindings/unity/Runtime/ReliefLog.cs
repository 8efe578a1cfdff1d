// relief's own messages (relief_set_log): loads that failed and will be retried, loads that gave
// up, what relief did, and every failed call's message, including those that arise on relief's
// loader threads, where no exception can reach the game.
using System;
using System.Runtime.InteropServices;
using Relief.Native;

namespace Relief
{
    /// <summary>Where relief's own log goes. By default nowhere; in Unity, for example:
    /// <c>ReliefLog.Set((level, message) => Debug.Log("relief: " + message), LogLevel.Warn);</c></summary>
    public static class ReliefLog
    {
        // The one callback relief is given: a static method (IL2CPP calls back into those only,
        // marked MonoPInvokeCallback) through a delegate held by a static field, so the GC never
        // collects what native code points at. The handler it forwards to is swapped under it.
        static readonly relief_log_fn Callback = OnMessage;
        static readonly IntPtr CallbackPointer = Marshal.GetFunctionPointerForDelegate(Callback);
        static readonly object Gate = new object();
        static volatile Action<LogLevel, string> handler;

        /// <summary>Sends relief's messages up to <paramref name="maxLevel"/> (Error sends the
        /// fewest, Debug all) to <paramref name="handler"/>; null stops them. Replaces any earlier
        /// handler: when this returns, the earlier one is no longer running and won't be called
        /// again. The handler is called from whichever thread a message arises on (the caller's,
        /// or one of relief's loader threads), possibly several at once: it must be thread-safe
        /// and quick, and must not call Set. An exception it throws is dropped (none may unwind
        /// into native code). Throws a ReliefException (InvalidArgument) for a level that is no
        /// <see cref="LogLevel"/>.</summary>
        public static void Set(Action<LogLevel, string> handler, LogLevel maxLevel)
        {
            Abi.Require();
            lock (Gate)
            {
                if (handler == null)
                {
                    // relief first: once it returns, nothing calls the old handler any more.
                    ReliefException.Check(NativeMethods.relief_set_log(IntPtr.Zero, IntPtr.Zero, NativeMethods.RELIEF_LOG_ERROR));
                    ReliefLog.handler = null;
                    return;
                }
                Action<LogLevel, string> before = ReliefLog.handler;
                ReliefLog.handler = handler;
                uint status = NativeMethods.relief_set_log(CallbackPointer, IntPtr.Zero, (uint)maxLevel);
                if (status != NativeMethods.RELIEF_STATUS_OK)
                {
                    ReliefLog.handler = before; // relief kept the earlier callback and level
                    throw ReliefException.Of(status);
                }
            }
        }

        [AOT.MonoPInvokeCallback(typeof(relief_log_fn))]
        static void OnMessage(IntPtr user, uint level, IntPtr message)
        {
            try
            {
                Action<LogLevel, string> h = handler;
                if (h != null)
                    h((LogLevel)level, ReliefException.Utf8(message));
            }
            catch (Exception)
            {
                // never let an exception unwind into native code
            }
        }
    }
}
