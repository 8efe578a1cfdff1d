// The samples' controls, read through whichever input system the project has active: Unity's
// Input System package (ENABLE_INPUT_SYSTEM, from Player Settings → Active Input Handling, and
// RELIEF_INPUT_SYSTEM, which the asmdef's versionDefines set only while the package is
// installed), or the Input Manager, whose Input class throws when the package is the only one
// active.
using UnityEngine;
#if RELIEF_INPUT_SYSTEM && ENABLE_INPUT_SYSTEM && !ENABLE_LEGACY_INPUT_MANAGER
using UnityEngine.InputSystem;
#endif

namespace Relief.Unity
{
    /// <summary>A key the samples act on.</summary>
    public enum SampleKey
    {
        /// <summary>Q.</summary>
        TurnLeft,
        /// <summary>E.</summary>
        TurnRight,
        /// <summary>Left Shift.</summary>
        Fast,
        /// <summary>Space.</summary>
        Climb,
        /// <summary>Left Ctrl.</summary>
        Descend,
    }

    /// <summary>The samples' keys and axes through the active input system, so they run with
    /// the Input Manager, the Input System package, or both.</summary>
    public static class SampleInput
    {
#if RELIEF_INPUT_SYSTEM && ENABLE_INPUT_SYSTEM && !ENABLE_LEGACY_INPUT_MANAGER
        /// <summary>Whether <paramref name="key"/> is held.</summary>
        public static bool Held(SampleKey key)
        {
            Keyboard k = Keyboard.current;
            if (k == null)
                return false;
            switch (key)
            {
                case SampleKey.TurnLeft: return k.qKey.isPressed;
                case SampleKey.TurnRight: return k.eKey.isPressed;
                case SampleKey.Fast: return k.leftShiftKey.isPressed;
                case SampleKey.Climb: return k.spaceKey.isPressed;
                default: return k.leftCtrlKey.isPressed;
            }
        }

        /// <summary>Forward (1) or back (−1): W/S or the up/down arrows.</summary>
        public static float Forward()
        {
            Keyboard k = Keyboard.current;
            if (k == null)
                return 0f;
            return (k.wKey.isPressed || k.upArrowKey.isPressed ? 1f : 0f) - (k.sKey.isPressed || k.downArrowKey.isPressed ? 1f : 0f);
        }

        /// <summary>Right (1) or left (−1): D/A or the right/left arrows.</summary>
        public static float Sideways()
        {
            Keyboard k = Keyboard.current;
            if (k == null)
                return 0f;
            return (k.dKey.isPressed || k.rightArrowKey.isPressed ? 1f : 0f) - (k.aKey.isPressed || k.leftArrowKey.isPressed ? 1f : 0f);
        }
#else
        /// <summary>Whether <paramref name="key"/> is held.</summary>
        public static bool Held(SampleKey key)
        {
            switch (key)
            {
                case SampleKey.TurnLeft: return Input.GetKey(KeyCode.Q);
                case SampleKey.TurnRight: return Input.GetKey(KeyCode.E);
                case SampleKey.Fast: return Input.GetKey(KeyCode.LeftShift);
                case SampleKey.Climb: return Input.GetKey(KeyCode.Space);
                default: return Input.GetKey(KeyCode.LeftControl);
            }
        }

        /// <summary>Forward (1) or back (−1): the Input Manager's "Vertical" axis (W/S, arrows).</summary>
        public static float Forward() { return Input.GetAxis("Vertical"); }

        /// <summary>Right (1) or left (−1): the Input Manager's "Horizontal" axis (D/A, arrows).</summary>
        public static float Sideways() { return Input.GetAxis("Horizontal"); }
#endif

        /// <summary>1, −1 or 0: <paramref name="plus"/> held, <paramref name="minus"/> held, or
        /// both or neither.</summary>
        public static float Axis(SampleKey plus, SampleKey minus)
        {
            return (Held(plus) ? 1f : 0f) - (Held(minus) ? 1f : 0f);
        }
    }
}
