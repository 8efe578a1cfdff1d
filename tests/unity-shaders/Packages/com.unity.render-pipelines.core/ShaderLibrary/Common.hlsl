// Stand-in for com.unity.render-pipelines.core ShaderLibrary/Common.hlsl: what the far
// ground uses of it. Source: Unity-Technologies/Graphics, Packages/com.unity.render-pipelines.core/
// ShaderLibrary/Common.hlsl (`real` is float off mobile) and Macros.hlsl (PI).
#ifndef UNITY_COMMON_INCLUDED
#define UNITY_COMMON_INCLUDED
#define real float
#define real3 float3
#define real4 float4
#define PI 3.14159265358979323846
#define TEXTURE2D(textureName) Texture2D textureName
#define LOAD_TEXTURE2D(textureName, unCoord2) textureName.Load(int3(unCoord2, 0))
#endif
