// Stand-in for the built-in pipeline's Lighting.cginc: what the far ground uses of it.
// Source: CGIncludes/UnityLightingCommon.cginc:6 (included by Lighting.cginc), branch 2021.3.
#ifndef LIGHTING_INCLUDED
#define LIGHTING_INCLUDED
#include "UnityCG.cginc"
fixed4 _LightColor0;
#endif
