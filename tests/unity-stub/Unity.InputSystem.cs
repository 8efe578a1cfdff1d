// A stand-in for the Input System package's assembly (com.unity.inputsystem, assembly
// Unity.InputSystem) holding exactly the members relief's package uses from it, so
// tests/unity_compile.rs can compile the package as a project with only the new input system
// active compiles it (ENABLE_INPUT_SYSTEM without ENABLE_LEGACY_INPUT_MANAGER). Each member
// has the signature its page in the package's API reference gives (pages at
// https://docs.unity3d.com/Packages/com.unity.inputsystem@1.7/api/<page>, cited per member);
// bodies throw, nothing here runs.
using System;

namespace UnityEngine.InputSystem.Controls
{
    static class Stub { internal static Exception Never() { return new NotSupportedException("Input System stand-in: compile only"); } }

    // UnityEngine.InputSystem.Controls.ButtonControl.html, ButtonControl.html#..._isPressed
    public class ButtonControl
    {
        public bool isPressed { get { throw Stub.Never(); } }
    }

    // UnityEngine.InputSystem.Controls.KeyControl.html
    public class KeyControl : ButtonControl { }
}

namespace UnityEngine.InputSystem
{
    using UnityEngine.InputSystem.Controls;

    // UnityEngine.InputSystem.Keyboard.html
    public class Keyboard
    {
        // UnityEngine.InputSystem.Keyboard.html#UnityEngine_InputSystem_Keyboard_current
        public static Keyboard current { get { throw Controls.Stub.Never(); } }
        // Keyboard.html: qKey, eKey, wKey, aKey, sKey, dKey, spaceKey, leftShiftKey,
        // leftCtrlKey, upArrowKey, downArrowKey, leftArrowKey, rightArrowKey
        public KeyControl qKey { get { throw Controls.Stub.Never(); } }
        public KeyControl eKey { get { throw Controls.Stub.Never(); } }
        public KeyControl wKey { get { throw Controls.Stub.Never(); } }
        public KeyControl aKey { get { throw Controls.Stub.Never(); } }
        public KeyControl sKey { get { throw Controls.Stub.Never(); } }
        public KeyControl dKey { get { throw Controls.Stub.Never(); } }
        public KeyControl spaceKey { get { throw Controls.Stub.Never(); } }
        public KeyControl leftShiftKey { get { throw Controls.Stub.Never(); } }
        public KeyControl leftCtrlKey { get { throw Controls.Stub.Never(); } }
        public KeyControl upArrowKey { get { throw Controls.Stub.Never(); } }
        public KeyControl downArrowKey { get { throw Controls.Stub.Never(); } }
        public KeyControl leftArrowKey { get { throw Controls.Stub.Never(); } }
        public KeyControl rightArrowKey { get { throw Controls.Stub.Never(); } }
    }
}
